"""Check a document's audit trail: the hash chain, its recorded head, the replayed state and every
artefact's bytes against the hash the chain recorded for it."""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass, replace
from pathlib import Path

from pydantic import ValidationError

from clusterbid.core.evaluation import Evaluation
from clusterbid.core.store import audit, changes, checkpoint, fileformat, snapshot
from clusterbid.core.store.artefact_check import check_artefacts
from clusterbid.core.store.audit import AuditRow


@dataclass(frozen=True)
class AuditReport:
    """The outcome of an audit; `first_broken` is the seq of the first bad row, if any."""

    path: Path
    ok: bool
    rows: tuple[AuditRow, ...]
    first_broken: int | None = None
    reason: str | None = None
    # Recovery files found beside the document, which the audit neither read nor touched.
    left_beside: tuple[str, ...] = ()
    # The first row whose hash was checked and replayed: 1 for a full audit, a checkpoint's row
    # for an open (then `rows` holds the trail from there on only).
    checked_from: int = 1
    replayed: int = 0  # rows applied to rebuild the state (what opening costs, by count)


def _check_chain(
    rows: tuple[AuditRow, ...], previous: str = audit.GENESIS_HASH, first_seq: int = 1
) -> tuple[int | None, str | None]:
    for expected_seq, row in enumerate(rows, start=first_seq):
        if row.seq != expected_seq:
            return (
                row.seq,
                f"row #{expected_seq} is missing: the trail jumps to #{row.seq} (rows were "
                "deleted)",
            )
        if audit.row_hash(previous, row.content()) != row.hash:
            return row.seq, (
                f"row #{row.seq} does not match its hash: it, or a row before it, was edited "
                "after it was recorded"
            )
        if (row.action == audit.CREATE) != (row.seq == 1):
            return row.seq, f"row #{row.seq}: only the first row may create the evaluation"
        previous = row.hash
    return None, None


def _first_difference(replayed: Evaluation, current: Evaluation) -> str:
    """Where to look first: the part of the evaluation, or the bid, that no longer matches."""
    for name in ("title", "currency", "workload", "policy"):
        if getattr(replayed, name) != getattr(current, name):
            return f"its {name} differs"
    recorded = {bid.id: bid for bid in replayed.bids}
    for position, bid in enumerate(current.bids, start=1):
        if recorded.get(bid.id) != bid:
            return f"bid {bid.id!r} at position {position} differs"
    missing = [bid_id for bid_id in recorded if bid_id not in {bid.id for bid in current.bids}]
    return f"bid {missing[0]!r} is missing" if missing else "the order of the bids differs"


def _same_state(
    state: changes.ReplayState,
    header: str,
    bids: list[str],
    start: checkpoint.Checkpoint | None = None,
) -> bool:
    """The replayed JSON equals the stored JSON, value for value: the same text validates to the
    same evaluation, so this spares validating the replay (a bid is parsed only when the two
    spellings differ, as after an edit row). A part the rows since the checkpoint left as it was
    is not parsed either when the stored text is still spelled as the checkpoint recorded it: the
    checkpoint's value is that text's (opening a 1,000-bid document parsed 2,000 texts)."""
    if len(state.bids) != len(bids):
        return False
    spelled = checkpoint.recorded_spellings(start.row) if start else None
    at_checkpoint = dict(zip(start.ids, start.bids)) if start and spelled else {}

    def unchanged(mine: str, theirs: str, digest: str | None, kept: str | None) -> bool:
        return digest is not None and mine == kept and checkpoint.spelling(theirs) == digest

    if not unchanged(
        state.header, header, spelled[0] if spelled else None, start.header if start else None
    ) and json.loads(state.header) != json.loads(header):
        return False
    recorded = spelled[1] if spelled else {}
    return all(
        mine == theirs
        or unchanged(mine, theirs, recorded.get(bid_id), at_checkpoint.get(bid_id))
        or json.loads(mine) == json.loads(theirs)
        for mine, theirs, bid_id in zip(state.bids, bids, state.ids)
    )


def _read_trail(
    conn: sqlite3.Connection, from_checkpoint: bool
) -> tuple[tuple[AuditRow, ...], str, checkpoint.Checkpoint | None]:
    """(rows to check, previous hash, checkpoint or None): the whole trail, or for an open the
    rows from the last verified checkpoint on."""
    start = checkpoint.load_latest(conn) if from_checkpoint else None
    if start is None:
        return audit.read_rows(conn), audit.GENESIS_HASH, None
    rows = audit.read_rows(conn, start.row.seq - 1)
    if len(rows) < 2 or rows[0].seq != start.row.seq - 1 or rows[1] != start.row:
        return audit.read_rows(conn), audit.GENESIS_HASH, None  # not what it seemed: replay it all
    return rows[1:], rows[0].hash, start


def _state_problem(
    conn: sqlite3.Connection,
    rows: tuple[AuditRow, ...],
    start: checkpoint.Checkpoint | None,
    current: Evaluation | None,
) -> str | None:
    """Why the stored evaluation is not the one `rows` replay to (from `start`, or from nothing);
    None when it is."""
    try:
        resumed = (
            None if start is None else changes.ReplayState(start.header, start.bids, start.ids)
        )
        state = changes.replay_state(rows, resumed)
        header, bids = snapshot.read_texts(conn)
        if _same_state(state, header, bids, start):
            return None
        replayed = state.evaluation()
    except (ValidationError, ValueError, KeyError, TypeError) as exc:
        return f"the trail cannot be replayed: {str(exc).splitlines()[0]}"
    except sqlite3.Error as exc:
        return f"the stored evaluation cannot be read: {exc}"
    if current is None:
        try:
            current = snapshot.load_evaluation(conn)
        except (ValidationError, ValueError, sqlite3.Error) as exc:
            return f"the stored evaluation does not validate: {str(exc).splitlines()[0]}"
    if replayed != current:
        return (
            "the stored evaluation differs from the one the trail replays to: "
            f"the data was edited outside ClusterBid ({_first_difference(replayed, current)})"
        )
    return None


def audit_connection(
    path: Path,
    conn: sqlite3.Connection,
    current: Evaluation | None = None,
    *,
    from_checkpoint: bool = False,
) -> AuditReport:
    """Audit an open connection without writing; `current` saves re-reading the stored evaluation.
    `from_checkpoint` (opening): hash and replay only from the last checkpoint whose kept state
    hashes to what its row recorded; the rows before it are audited by `clusterbid audit`."""

    def broken(seq: int | None, reason: str, rows: tuple[AuditRow, ...] = ()) -> AuditReport:
        return AuditReport(path, False, rows, seq, reason)

    try:
        rows, previous, start = _read_trail(conn, from_checkpoint)
    except (
        sqlite3.Error
    ) as exc:  # e.g. text that is not valid UTF-8, which the integrity check lets pass
        return broken(
            None, f"the audit trail cannot be read ({exc}): it was altered outside ClusterBid"
        )
    if not rows:
        return broken(None, "the audit trail is empty: the document's history was removed")
    first = rows[0].seq if start else 1
    seq, reason = _check_chain(rows, previous, first)
    if not reason and any(row.action == audit.COUNTERSIGN for row in rows):
        reason = _countersign_problem(conn, rows, start)
    if reason:
        return broken(seq, reason, rows)
    reason = _head_problem(conn, rows)
    if reason:
        return broken(rows[-1].seq, reason, rows)
    reason = _state_problem(conn, rows[1:] if start else rows, start, current)
    if reason:
        return broken(None, reason, rows)
    seq, reason = _artefact_problem(conn, rows, start)
    if reason:
        return broken(seq, reason, rows)
    return AuditReport(
        path, True, rows, checked_from=first, replayed=len(rows) - (1 if start else 0)
    )


def _countersign_problem(
    conn: sqlite3.Connection, rows: tuple[AuditRow, ...], start: checkpoint.Checkpoint | None
) -> str | None:
    """A countersigned row recomputed with the chain is still not what was signed. Imported
    here: cryptography is a tenth of the app's start, and most trails have no countersignature."""
    from clusterbid.core.store.countersign import countersign_problems

    first_row = audit.read_row(conn, 1) if start else rows[0]
    signed_problems = countersign_problems(
        rows, first_row.hash if first_row else "", lambda wanted: audit.read_row(conn, wanted)
    )
    return signed_problems[0] if signed_problems else None


def _head_problem(conn: sqlite3.Connection, rows: tuple[AuditRow, ...]) -> str | None:
    """The document's record of its last change against the last row: rows cut from the end."""
    if audit.read_head(conn) == (rows[-1].seq, rows[-1].hash):
        return None
    head = audit.read_head(conn)
    if head[0] == audit.MALFORMED_SEQ:
        return (
            "the document's record of its last change is damaged (not a row "
            f"number); the trail ends at #{rows[-1].seq}"
        )
    return (
        f"the document recorded its last change as #{head[0]} but the trail ends at "
        f"#{rows[-1].seq}: rows were removed from the end"
    )


def _artefact_problem(
    conn: sqlite3.Connection, rows: tuple[AuditRow, ...], start: checkpoint.Checkpoint | None
) -> tuple[int | None, str | None]:
    """Each attached file against the hash its row recorded (all of them, when the trail was
    read from a checkpoint); the row and reason of the first that differs."""
    try:
        attached = (
            [row for row in rows if row.action == audit.ATTACH_ARTEFACT]
            if start is None
            else audit.read_rows_by_action(conn, audit.ATTACH_ARTEFACT)
        )
        return check_artefacts(conn, attached)
    except (sqlite3.Error, ValueError) as exc:
        return None, f"the artefacts cannot be read ({exc})"


def verify_audit_chain(path: Path | str) -> AuditReport:
    """Verify the trail of the document at `path` without changing the file."""
    path = Path(path)
    # Read-only for real: the file as it lies on disk, no journal rolled back and no WAL merged
    # (a stray -wal beside a document was once merged into it, and deleted, by an audit).
    beside = tuple(p.name for p in fileformat.recovery_files(path))
    conn = fileformat.open_connection(
        path, allow_missing_guard=True, read_only=True, whole_history=True
    )
    try:
        missing_guard = fileformat.check_schema(path, conn, fileformat.document_version(conn))
        report = audit_connection(path, conn)
    except (sqlite3.Error, UnicodeDecodeError) as exc:  # damaged pages under the rows themselves
        report = AuditReport(
            path, False, (), None, f"the document is damaged and its trail cannot be read ({exc})"
        )
        missing_guard = set()
    finally:
        conn.close()
    if report.ok and missing_guard:
        report = AuditReport(
            path,
            False,
            report.rows,
            None,
            "the trail's append-only guard was removed (" + ", ".join(sorted(missing_guard)) + ")",
        )
    if not report.ok and any(name.endswith("-journal") for name in beside):
        # A crash left a change half-written: the file on disk is not the document until the
        # journal is rolled back, so say that rather than call it tampered.
        report = replace(
            report,
            reason=f"{report.reason}; but an unfinished change lies beside it "
            f"({path.name}-journal, a crash): open the document for editing once to finish "
            "the recovery, then audit again",
        )
    return replace(report, left_beside=beside) if beside else report


def audit_warning(report: AuditReport) -> str:
    """What the CLI prints and the app shows for a document that fails its audit."""
    return (
        f"WARNING: {report.path.name} fails its audit: {report.reason}. Its figures may not be the "
        f"ones recorded; run `clusterbid audit {report.path.name}` and use a copy you trust."
    )


def override_note(report: AuditReport, who: str, reason: str) -> str:
    """The line a memo made from such a document carries, so no reader takes it for a clean one."""
    return (
        f"Made from a document that failed its audit ({report.reason}); accepted by {who}, "
        f"recorded in its audit trail: {reason.strip()}"
    )
