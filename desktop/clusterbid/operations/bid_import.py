"""Import a filled bid sheet (.xlsx, .csv or .json): read and check every row, then add the bids
to the evaluation in one edit and one audit row, named here for both doors."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from clusterbid.core.errors import InputError
from clusterbid.core.model_parsing import describe_validation_error
from clusterbid.core.store import snapshot
from clusterbid.operations.progress import CancelToken, ProgressCallback, checkpoint

if TYPE_CHECKING:
    from clusterbid.core.evaluation import Evaluation
    from clusterbid.core.store import EvaluationDocument


@dataclass(frozen=True)
class ImportedBids:
    added: int
    total: int  # the bids the evaluation holds after the import


def read_bid_sheet(
    path: Path | str,
    progress: ProgressCallback,
    cancel: CancelToken,
    *,
    valid_rows_only: bool = False,
) -> Any:
    """The sheet's ImportReport: the bids accepted and every problem, by row and cell. All or
    nothing unless `valid_rows_only`; InputError (or OSError) when the file itself is refused."""
    from clusterbid.core.interchange import import_bids

    checkpoint(cancel)
    progress(0.1, f"reading {Path(path).name}")
    return import_bids(path, valid_rows_only=valid_rows_only)


def import_label(report: Any) -> str:
    """The audit row's (and the app's undo) wording of an import: the same from either door."""
    return f"Import {len(report.bids)} bid(s) from {Path(report.source).name}"


def import_into_document(document: EvaluationDocument, report: Any) -> ImportedBids:
    """The command line's import: the report's bids added in one transaction and one audit row."""
    document.add_bids(list(report.bids), label=import_label(report))
    return ImportedBids(len(report.bids), len(document.evaluation.bids))


def evaluation_with_import(evaluation: Evaluation, report: Any) -> tuple[Evaluation, str]:
    """The app's import: the evaluation with the report's bids added (InputError when an id is
    taken or the result does not validate) and the label its one edit is recorded under."""
    try:
        new = snapshot.rebuild(evaluation, bids=(*evaluation.bids, *report.bids))
    except ValidationError as exc:
        raise InputError(describe_validation_error(exc, f"importing {report.source}")) from None
    return new, import_label(report)
