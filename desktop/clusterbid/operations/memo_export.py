"""Export an evaluation's approval memo, and record the export in the audit trail of the document
it was made from.

Both doors make the same memo from the same choices: the sample count is DEFAULT_SAMPLES unless
the officer asks otherwise (`clusterbid memo --samples`), so a memo exported from the app is the
bytes the command line writes from the same document. The rows (an accepted failed audit, the
export) are written here, into the document the memo's anchor was read from.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from clusterbid.core.errors import InputError
from clusterbid.core.sample_counts import DEFAULT_SAMPLES
from clusterbid.operations.progress import CancelToken, ProgressCallback, checkpoint
from clusterbid.operations.recording import record_in, same_file

if TYPE_CHECKING:
    from clusterbid.core.evaluation import Evaluation
    from clusterbid.core.store import EvaluationDocument


@dataclass(frozen=True)
class MemoChoices:
    """What the officer chose for the memo."""

    approvers: Sequence[Any]
    notes: str = ""
    override: Any = None  # a RecommendationOverride, or None for the model's first bid
    decision_date: dt.date | None = None
    samples: int = DEFAULT_SAMPLES  # 0 leaves the bands out
    rationale: str = ""  # issue 34: why the premium over a cheaper passing bid


@dataclass(frozen=True)
class MemoSource:
    """The evaluation a memo is made from and, for a document, its history as the memo prints it."""

    evaluation: Evaluation
    document: Path | None = None  # the only document that may record the export
    anchor: dict[str, object] | None = None
    request_statuses: tuple[Any, ...] = ()
    panel: Any = (
        None  # the document's evaluation panel (core/panel/view.py PanelRecord), if it has one
    )


@dataclass(frozen=True)
class ExportedMemo:
    path: Path
    sha256: str
    record_into: Path | None
    anchor: dict[str, object] | None


def memo_source(document: EvaluationDocument, evaluation: Evaluation | None = None) -> MemoSource:
    """Read on the thread that holds `document`: its audit head now (the memo prints and attaches
    it) and the evidence requests issued from it, with their states today."""
    from clusterbid.core.evidence_request.status import request_statuses
    from clusterbid.core.panel.view import panel_record
    from clusterbid.core.store.anchor import AuditAnchor

    return MemoSource(
        evaluation if evaluation is not None else document.evaluation,
        document.path,
        AuditAnchor.from_head(document.head).as_json(),
        tuple(request_statuses(document, dt.date.today())),
        panel_record(document),
    )


def accept_failed_audit(document: EvaluationDocument, reason: str) -> str:
    """Record the officer's reason for making a memo of a document that fails its audit; returns
    the note the memo prints with the notes, so no reader takes it for a clean one."""
    from clusterbid.core.store import override_note

    report = document.audit_report
    document.accept_failed_audit(reason)
    return override_note(report, document.user, reason)


def export_memo(
    source: MemoSource,
    choices: MemoChoices,
    output: Path,
    progress: ProgressCallback,
    cancel: CancelToken,
) -> ExportedMemo:
    """Make the memo and write it whole or not at all (a full disk leaves neither a half memo nor a
    stray temporary file); a cancel before the write leaves nothing."""
    from clusterbid.core.memo.inputs import checked_approvers
    from clusterbid.core.memo.making import make_memo
    from clusterbid.core.safe_files import write_bytes_atomically

    checked_approvers(choices.approvers)  # said before the scoring and the pages, not after them

    def reported(fraction: float, message: str = "") -> None:
        checkpoint(cancel)
        progress(fraction, message)

    pdf = make_memo(
        source.evaluation,
        approvers=choices.approvers,
        notes=choices.notes,
        override=choices.override,
        decision_date=choices.decision_date,
        rationale=choices.rationale,
        audit_anchor=source.anchor,
        request_statuses=source.request_statuses,
        samples=max(choices.samples, 0),
        progress=reported,
        panel=source.panel,
    )
    reported(0.95, "writing")  # the last point a cancel stops it: nothing is written after it
    write_bytes_atomically(output, pdf)
    sha256 = hashlib.sha256(pdf).hexdigest()
    return ExportedMemo(Path(output), sha256, source.document, source.anchor)


def write_export_row(document: EvaluationDocument, exported: ExportedMemo) -> tuple[str, ...]:
    """Record the export in `document`, which must be the one the memo was made from (InputError
    otherwise, or when the file cannot take it); returns what the anchor log could not take."""
    if exported.record_into is None or not same_file(document.path, exported.record_into):
        raise InputError(f"{document.path.name} is not the document this memo was made from")
    document.record_memo_exported(exported.path.name, exported.sha256, exported.anchor)
    return tuple(document.anchor_problems)


def record_export(document: EvaluationDocument, exported: ExportedMemo) -> str | None:
    """The app's recording (the document reopened if the window closed it): why the row is not
    (all) in, in words; None when it went in."""
    return record_in(document, lambda doc: write_export_row(doc, exported))
