"""The training software stacks a workload may name (issue 36 item 1), in the officer's words.

The figures behind each stack live in resources/catalog/stacks.toml and are read by
costmodel/stack_efficiency.py; this module only names them, so the workload model can check the
choice without loading the catalog.
"""

from __future__ import annotations

from typing import Literal

SoftwareStack = Literal[
    "not-stated", "megatron-lm-2021", "llm-foundry-2023", "megatron-core-2024", "nemo-2024"
]
NOT_STATED = "not-stated"

STACK_WORDS: dict[str, str] = {
    "not-stated": "Not stated",
    "megatron-lm-2021": "Megatron-LM, 2021-22 generation",
    "llm-foundry-2023": "PyTorch FSDP (llm-foundry, 2023)",
    "megatron-core-2024": "Megatron-Core, 2024 and later",
    "nemo-2024": "NVIDIA NeMo 24.x (FP8)",
}


def stack_words(stack: str) -> str:
    """The stack as a sentence shows it ("Megatron-Core, 2024 and later")."""
    return STACK_WORDS.get(stack, stack)


def input_value_words(name: str, value: object) -> str:
    """A tracked workload input's value as shown beside its source: the stack in words, a
    number in its shortest form."""
    if name == "software_stack":
        return stack_words(str(value))
    return f"{value:g}"
