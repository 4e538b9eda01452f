"""A memo made from an earlier state of its evaluation is still the decision as signed.

Verify compares the memo's attached evaluation with the evaluation it is checked against. When
that evaluation is a .clusterbid document whose audit trail still holds the memo's row with the
memo's hash, a difference is not an alteration of the memo: the evaluation was edited after the
memo was made, and the rows after the memo's anchor say where. Only then is the difference moved
from "proven wrong" to a plain statement; a rolled-back or rewritten trail, or an evaluation that
differs with no edit on record to explain it, still fails.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from clusterbid.core.memo.anchor_check import DOCUMENT_SUFFIX, memo_anchor
from clusterbid.core.memo.verification import EVALUATION_DIFFERS
from clusterbid.core.store import audit
from clusterbid.core.store.anchor import check_anchor

if TYPE_CHECKING:
    from clusterbid.core.memo.verification import MemoVerification
    from clusterbid.core.store.audit import AuditRow

# The rows that change the evaluation; records of what was done with it (a memo made, signed,
# decided, an approver registered, a checkpoint) change no figure the memo printed.
EVALUATION_CHANGES = frozenset(
    {
        audit.ADD_BID,
        audit.REPLACE_BID,
        audit.REMOVE_BID,
        audit.SET_WORKLOAD,
        audit.SET_POLICY,
        audit.EDIT,
        audit.ATTACH_ARTEFACT,
    }
)


def changed_rows_after(document: Path, anchor_seq: int) -> list[AuditRow]:
    """The audit rows after the memo's row that changed the evaluation, oldest first."""
    from clusterbid.core.store.verify import verify_audit_chain

    return [
        row
        for row in verify_audit_chain(document).rows
        if row.seq > anchor_seq and row.action in EVALUATION_CHANGES
    ]


def changed_since_words(rows: list[AuditRow], *, intact: bool, signed: bool = True) -> str:
    """The sentence verify shows for an evaluation edited after its memo was made; `intact`:
    nothing else was found wrong, so the memo is the decision as signed (`signed`: it carries
    a signature; an unsigned one is intact as made)."""
    span = f"row #{rows[0].seq}" if len(rows) == 1 else f"rows #{rows[0].seq}-#{rows[-1].seq}"
    edits = f"at audit {span} ({len(rows)} change(s) after the memo was made)"
    if not intact:  # the memo's own findings decide; the edits are only not among them
        return f"The evaluation also changed since the memo was made, {edits}."
    if not signed:
        return (
            f"The memo is intact as made; the evaluation changed since, {edits}. Sign this "
            "memo for the decision as it stands in it, or export a new one with the changes."
        )
    return (
        f"The memo is intact and signed as made; the evaluation changed since, {edits}. The "
        "memo is the decision as signed; export a new memo if the changes should be approved."
    )


def with_changes_since(
    result: MemoVerification, pdf: bytes, evaluation_path: Path | None
) -> MemoVerification:
    """`result` with an evaluation difference explained by the document's later audit rows
    taken out of its problems and stated in `changed_since`; `result` unchanged otherwise."""
    if (
        evaluation_path is None
        or Path(evaluation_path).suffix != DOCUMENT_SUFFIX
        or result.evaluation_matches is not False
    ):
        return result
    try:
        anchor = memo_anchor(pdf)
    except Exception:  # an unreadable anchor is reported by the anchor check in its own words
        return result
    if anchor is None or check_anchor(evaluation_path, anchor):
        return result  # not provably this document's history: the difference stays a finding
    rows = changed_rows_after(Path(evaluation_path), anchor.seq)
    if not rows:
        return result  # nothing on record explains the difference
    problems = tuple(p for p in result.problems if not p.startswith(EVALUATION_DIFFERS))
    return replace(
        result,
        problems=problems,
        changed_since=changed_since_words(
            rows, intact=not problems, signed=bool(result.signatures)
        ),
    )
