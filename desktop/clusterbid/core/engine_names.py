"""The serving engines a serving workload may name (issue 37, methodology section 8 target (c)),
in the officer's words.

The figures behind each engine live in resources/catalog/engines.toml and are read by
costmodel/engine_efficiency.py; this module only names them, so the workload model can check the
choice without loading the catalog (as stack_names does for training's software stack).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

ServingEngine = Literal["not-stated", "tensorrt-llm", "vllm-0.6"]
NOT_STATED = "not-stated"

ENGINE_WORDS: dict[str, str] = {
    "not-stated": "Not stated",
    "tensorrt-llm": "TensorRT-LLM, tuned",
    "vllm-0.6": "vLLM 0.6, default deployment",
}


def engine_words(engine: str) -> str:
    """The engine as a sentence shows it ("vLLM 0.6, default deployment")."""
    return ENGINE_WORDS.get(engine, engine)


def engine_source_words(engine: str) -> str:
    """Whose statement the engine is: a named engine is the buyer's (only the buyer sets it), the
    default is ClusterBid's, never a provider's."""
    if engine == NOT_STATED:
        return "not stated: ClusterBid's default"
    return "the buyer's statement"


def serving_engine_field() -> Any:
    """The serving workload's `serving_engine` field: missing in a document (older ones too) is
    not stated."""
    return Field(
        NOT_STATED,
        description=(
            "The serving engine the buyer will run (issue 37): a named engine's published "
            "efficiency sets the spec-only estimate and keeps its own range in the bands; not "
            "stated keeps the workload's efficiencies and widens the bands by the spread across "
            "published engines (resources/catalog/engines.toml)"
        ),
    )
