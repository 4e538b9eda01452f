"""Either kind of workload an evaluation can hold: a training run or an inference service."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

from pydantic import Discriminator, Tag

from clusterbid.core.documents import read_model
from clusterbid.core.errors import InputError
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
    try:
        kind = workload_kind(json.loads(path.read_text(encoding="utf-8-sig")))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError):
        kind = "training"  # read_model reports the file problem with its own message
    if kind not in WORKLOAD_KINDS:
        raise InputError(f"{path}: kind is {kind!r}; a workload's kind is 'training' or 'inference'")
    return read_model(WORKLOAD_KINDS[kind], path)
