"""The append-only, hash-chained audit trail: its rows, their hashes and the recorded head."""

from __future__ import annotations

import datetime as dt
import getpass
import hashlib
import json
import sqlite3
from dataclasses import dataclass

# Defined where the first window reads it without importing the store.
from clusterbid.core.shown_scorecard import HEAD_KEY  # noqa: F401

GENESIS_HASH = "0" * 64

# Actions that change the evaluation; the rest are records of what was done with it.
CREATE, ADD_BID, REPLACE_BID, REMOVE_BID = "create", "add_bid", "replace_bid", "remove_bid"
SET_WORKLOAD, SET_POLICY = "set_workload", "set_policy"
RECORD_DECISION, RECORD_MEMO_EXPORTED, RECORD_SIGNATURE = (
    "record_decision",
    "record_memo_exported",
    "record_signature",
)
ATTACH_ARTEFACT = "attach_artefact"
# One user action that changed several parts at once (see changes.py); one row, one transaction.
EDIT = "edit"
# An officer chose to go on with a document that failed its audit; the reason is kept.
RECORD_AUDIT_OVERRIDE = "record_audit_override"
COUNTERSIGN = "countersign"  # a user's signature over a row, and by the chain over all before it
# The state the rows before it replay to, by digest (checkpoint.py): open replays from the last.
CHECKPOINT = "checkpoint"
# The approver registry (approvers.py): who may sign for which role, with which keys, from when.
APPROVER_ADD, APPROVER_KEY, APPROVER_RETIRE = "approver_add", "approver_key", "approver_retire"
REGISTRY_ACTIONS = (APPROVER_ADD, APPROVER_KEY, APPROVER_RETIRE)
# An evaluation panel (core/panel/, panel_lock.py): the lead invites, each evaluator's copy is
# stamped and judged, and the lead merges the copies and records the consensus. All are records.
PANEL_INVITE, PANEL_COPY, PANEL_JUDGEMENT = "panel_invite", "panel_copy", "panel_judgement"
PANEL_MERGE, PANEL_CONSENSUS = "panel_merge", "panel_consensus"
PANEL_ACTIONS = (PANEL_INVITE, PANEL_COPY, PANEL_JUDGEMENT, PANEL_MERGE, PANEL_CONSENSUS)
ACTIONS = (
    CREATE,
    ADD_BID,
    REPLACE_BID,
    REMOVE_BID,
    SET_WORKLOAD,
    SET_POLICY,
    RECORD_DECISION,
    RECORD_MEMO_EXPORTED,
    RECORD_SIGNATURE,
    ATTACH_ARTEFACT,
    EDIT,
    RECORD_AUDIT_OVERRIDE,
    COUNTERSIGN,
    CHECKPOINT,
    *REGISTRY_ACTIONS,
    *PANEL_ACTIONS,
)


@dataclass(frozen=True)
class AuditRow:
    """One recorded change: when, who, what, on which target, the old and the new value (JSON)."""

    seq: int
    at: str
    who: str
    action: str
    target: str | None
    old_json: str | None
    new_json: str | None
    hash: str

    def content(self) -> dict[str, object]:
        # Spelled out rather than dataclasses.asdict, which deep-copies: this runs once per row
        # hashed on every open.
        return {
            "seq": self.seq,
            "at": self.at,
            "who": self.who,
            "action": self.action,
            "target": self.target,
            "old_json": self.old_json,
            "new_json": self.new_json,
        }


def default_user() -> str:
    """The OS login name; getuser fails without a password entry (containers), hence the fallback."""
    try:
        return getpass.getuser() or "unknown user"
    except Exception:  # getuser raises OSError, KeyError or ImportError depending on the platform
        return "unknown user"


def utc_now() -> str:
    return dt.datetime.now(dt.UTC).isoformat(timespec="microseconds")


MALFORMED_SEQ = -1
MAX_SEQ_DIGITS = 18  # a billion edits a second for thirty years still fits


def row_hash(previous_hash: str, content: dict[str, object]) -> str:
    """sha256 over the previous row's hash and the canonical JSON of this row's fields."""
    canonical = json.dumps(content, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256((previous_hash + canonical).encode("utf-8")).hexdigest()


def read_head(conn: sqlite3.Connection) -> tuple[int, str]:
    """The recorded last row (number, hash); MALFORMED_SEQ as the number when the record is damaged
    or forged (letters, a 5,000-digit number), so it fails the comparison with the trail's last row
    and the audit says so, instead of int() failing with an internal error."""
    row = conn.execute("SELECT value FROM meta WHERE key = ?", (HEAD_KEY,)).fetchone()
    if row is None:
        return 0, GENESIS_HASH
    seq, _, digest = str(row[0]).partition(" ")
    if not (seq.isascii() and seq.isdigit()) or len(seq) > MAX_SEQ_DIGITS:
        return MALFORMED_SEQ, digest
    return int(seq), digest


def append(
    conn: sqlite3.Connection,
    head: tuple[int, str],
    *,
    who: str,
    action: str,
    target: str | None,
    old_json: str | None,
    new_json: str | None,
) -> AuditRow:
    """Add the next row of the chain (inside the caller's transaction) and move the recorded head."""
    seq, previous = head
    content = {
        "seq": seq + 1,
        "at": utc_now(),
        "who": who,
        "action": action,
        "target": target,
        "old_json": old_json,
        "new_json": new_json,
    }
    row = AuditRow(**content, hash=row_hash(previous, content))
    conn.execute(
        "INSERT INTO audit (seq, at, who, action, target, old_json, new_json, hash) VALUES (?, ?, "
        "?, ?, ?, ?, ?, ?)",
        (row.seq, row.at, row.who, row.action, row.target, row.old_json, row.new_json, row.hash),
    )
    # The head lets verify notice rows cut from the end, which a chain alone cannot show.
    conn.execute(
        "INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)",
        (HEAD_KEY, f"{row.seq} {row.hash}"),
    )
    return row


def read_rows(conn: sqlite3.Connection, from_seq: int = 1) -> tuple[AuditRow, ...]:
    """The rows from `from_seq` on (all of them by default), oldest first."""
    cursor = conn.execute(
        "SELECT seq, at, who, action, target, old_json, new_json, hash FROM audit "
        "WHERE seq >= ? ORDER BY seq",
        (from_seq,),
    )
    return tuple(AuditRow(*row) for row in cursor)


def read_row(conn: sqlite3.Connection, seq: int) -> AuditRow | None:
    found = conn.execute(
        "SELECT seq, at, who, action, target, old_json, new_json, hash FROM audit WHERE seq = ?",
        (seq,),
    ).fetchone()
    return None if found is None else AuditRow(*found)


def read_rows_by_action(conn: sqlite3.Connection, action: str) -> list[AuditRow]:
    """The rows of one kind, oldest first (through the audit_by_action index)."""
    cursor = conn.execute(
        "SELECT seq, at, who, action, target, old_json, new_json, hash FROM audit "
        "WHERE action = ? ORDER BY seq",
        (action,),
    )
    return [AuditRow(*row) for row in cursor]
