"""Read evaluations, workloads and bids from JSON files or .clusterbid documents, with errors
that name file and field (the parsing itself is model_parsing.py's)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from clusterbid.core.model_parsing import (  # noqa: F401 (re-exported: the names callers know)
    WORKLOAD_TAGS,
    describe_location,
    describe_validation_error,
    parse_model,
    read_model,
)

if TYPE_CHECKING:
    from clusterbid.core.evaluation import Evaluation

# The parsing names are re-exported here, where callers have always found them.
__all__ = [
    "WORKLOAD_TAGS",
    "describe_location",
    "describe_validation_error",
    "parse_model",
    "read_evaluation",
    "read_model",
]


def read_evaluation(
    path: Path, warn: Callable[[str], object] | None = None, *, read_only: bool = False
) -> Evaluation:
    """An evaluation from a .clusterbid document or from an evaluation JSON file; `warn(text)` is
    told when the document fails its audit (the CLI prints it on stderr). `read_only`: the
    document is read as it lies on disk and never written (verify)."""
    from clusterbid.core.evaluation import Evaluation

    if path.suffix == ".clusterbid":
        from clusterbid.core.store import EvaluationDocument, audit_warning

        with EvaluationDocument.open(path, read_only=read_only) as document:
            if warn is not None and not document.audit_report.ok:
                warn(audit_warning(document.audit_report))
            return document.evaluation
    return read_model(Evaluation, path)
