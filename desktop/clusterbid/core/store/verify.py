"""Check a document's audit trail: the hash chain, its recorded head, and the replayed state."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from pydantic import ValidationError

from clusterbid.core.store import audit, changes, fileformat, snapshot
from clusterbid.core.store.audit import AuditRow


@dataclass(frozen=True)
class AuditReport:
    """The outcome of verify_audit_chain; `first_broken` is the seq of the first bad row, if any."""

    path: Path
    ok: bool
    rows: tuple[AuditRow, ...]
    first_broken: int | None = None
    reason: str | None = None


def _check_chain(rows: tuple[AuditRow, ...]) -> tuple[int | None, str | None]:
    previous = audit.GENESIS_HASH
    for expected_seq, row in enumerate(rows, start=1):
        if row.seq != expected_seq:
            return row.seq, f"row #{expected_seq} is missing: the trail jumps to #{row.seq} (rows were deleted)"
        if audit.row_hash(previous, row.content()) != row.hash:
            return row.seq, (f"row #{row.seq} does not match its hash: it, or a row before it, was edited "
                             "after it was recorded")
        if (row.action == audit.CREATE) != (row.seq == 1):
            return row.seq, f"row #{row.seq}: only the first row may create the evaluation"
        previous = row.hash
    return None, None


def verify_audit_chain(path: Path | str) -> AuditReport:
    """Verify the trail of the document at `path` without changing the file."""
    path = Path(path)
    # No migration: verifying must not write, and the audit table is the same in every format.
    conn = fileformat.open_connection(path, migrate=False, allow_missing_guard=True)
    try:
        rows = audit.read_rows(conn)
        missing_guard = fileformat.check_schema(path, conn, fileformat.document_version(conn))
        head = audit.read_head(conn)
        try:
            current = snapshot.load_evaluation(conn)
        except (ValidationError, ValueError) as exc:
            current, current_error = None, str(exc).splitlines()[0]
    finally:
        conn.close()

    def broken(seq: int | None, reason: str) -> AuditReport:
        return AuditReport(path, False, rows, seq, reason)

    if not rows:
        return broken(None, "the audit trail is empty: the document's history was removed")
    seq, reason = _check_chain(rows)
    if reason:
        return broken(seq, reason)
    if head != (rows[-1].seq, rows[-1].hash):
        return broken(rows[-1].seq, f"the document recorded its last change as #{head[0]} but the trail ends at "
                                    f"#{rows[-1].seq}: rows were removed from the end")
    try:
        replayed = changes.replay_audit(rows)
    except (ValidationError, ValueError, KeyError, TypeError) as exc:
        return broken(None, f"the trail cannot be replayed: {str(exc).splitlines()[0]}")
    if current is None:
        return broken(None, f"the stored evaluation does not validate: {current_error}")
    if replayed != current:
        return broken(None, "the stored evaluation differs from the one the trail replays to: "
                            "the data was edited outside ClusterBid")
    if missing_guard:
        return broken(None, "the trail's append-only guard was removed (" + ", ".join(sorted(missing_guard)) + ")")
    return AuditReport(path, True, rows)
