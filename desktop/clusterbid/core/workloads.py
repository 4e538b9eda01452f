"""Either kind of workload an evaluation can hold: a training run or an inference service."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

from pydantic import Discriminator, Tag

from clusterbid.core.errors import InputError
from clusterbid.core.model_parsing import parse_model
from clusterbid.core.serving_workload import InferenceWorkload
from clusterbid.core.workload import Workload

WORKLOAD_KINDS = {"training": Workload, "inference": InferenceWorkload}


def workload_kind(value: object) -> str:
    """The `kind` tag; files written before inference existed have none and are training runs."""
    if isinstance(value, dict):
        return value.get("kind", "training")
    return getattr(value, "kind", "training")


AnyWorkload = Annotated[
    Annotated[Workload, Tag("training")] | Annotated[InferenceWorkload, Tag("inference")],
    Discriminator(
        workload_kind,
        custom_error_type="invalid_workload_kind",
        custom_error_message="workload kind must be 'training' or 'inference'",
    ),
]


def is_serving(evaluation) -> bool:
    """True when the evaluation buys an inference service rather than a training run."""
    return isinstance(evaluation.workload, InferenceWorkload)


def read_workload(path: Path) -> Workload | InferenceWorkload:
    """A workload JSON file of either kind, chosen by its `kind` field (absent: training)."""
    from clusterbid.core.json_input import loads, read_json_text

    text = read_json_text(path)  # size checked before anything is read
    kind = workload_kind(loads(text, str(path)))
    if kind not in WORKLOAD_KINDS:
        raise InputError(
            f"{path}: kind is {kind!r}; a workload's kind is 'training' or 'inference'"
        )
    return parse_model(WORKLOAD_KINDS[kind], text, str(path))
