"""The append-only, hash-chained audit trail and its replay into an evaluation."""

from __future__ import annotations

import datetime as dt
import getpass
import hashlib
import json
import sqlite3
from dataclasses import asdict, dataclass

from clusterbid.core.evaluation import Evaluation
from clusterbid.core.store.snapshot import assemble, header_json

GENESIS_HASH = "0" * 64
HEAD_KEY = "audit_head"

# Actions that change the evaluation; the rest are records of what was done with it.
CREATE, ADD_BID, REPLACE_BID, REMOVE_BID = "create", "add_bid", "replace_bid", "remove_bid"
SET_WORKLOAD, SET_POLICY = "set_workload", "set_policy"
RECORD_DECISION, RECORD_MEMO_EXPORTED, RECORD_SIGNATURE = "record_decision", "record_memo_exported", "record_signature"
ATTACH_ARTEFACT = "attach_artefact"
ACTIONS = (CREATE, ADD_BID, REPLACE_BID, REMOVE_BID, SET_WORKLOAD, SET_POLICY, RECORD_DECISION,
           RECORD_MEMO_EXPORTED, RECORD_SIGNATURE, ATTACH_ARTEFACT)


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
        fields = asdict(self)
        del fields["hash"]
        return fields


def default_user() -> str:
    """The OS login name; getuser fails without a password entry (containers), hence the fallback."""
    try:
        return getpass.getuser() or "unknown user"
    except Exception:  # getuser raises OSError, KeyError or ImportError depending on the platform
        return "unknown user"


def utc_now() -> str:
    return dt.datetime.now(dt.timezone.utc).isoformat(timespec="microseconds")


def row_hash(previous_hash: str, content: dict[str, object]) -> str:
    """sha256 over the previous row's hash and the canonical JSON of this row's fields."""
    canonical = json.dumps(content, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256((previous_hash + canonical).encode("utf-8")).hexdigest()


def read_head(conn: sqlite3.Connection) -> tuple[int, str]:
    row = conn.execute("SELECT value FROM meta WHERE key = ?", (HEAD_KEY,)).fetchone()
    if row is None:
        return 0, GENESIS_HASH
    seq, _, digest = row[0].partition(" ")
    return int(seq), digest


def append(conn: sqlite3.Connection, head: tuple[int, str], *, who: str, action: str, target: str | None,
           old_json: str | None, new_json: str | None) -> AuditRow:
    """Add the next row of the chain (inside the caller's transaction) and move the recorded head."""
    seq, previous = head
    content = {"seq": seq + 1, "at": utc_now(), "who": who, "action": action, "target": target,
               "old_json": old_json, "new_json": new_json}
    row = AuditRow(**content, hash=row_hash(previous, content))
    conn.execute(
        "INSERT INTO audit (seq, at, who, action, target, old_json, new_json, hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        (row.seq, row.at, row.who, row.action, row.target, row.old_json, row.new_json, row.hash),
    )
    # The head lets verify notice rows cut from the end, which a chain alone cannot show.
    conn.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", (HEAD_KEY, f"{row.seq} {row.hash}"))
    return row


def read_rows(conn: sqlite3.Connection) -> tuple[AuditRow, ...]:
    cursor = conn.execute("SELECT seq, at, who, action, target, old_json, new_json, hash FROM audit ORDER BY seq")
    return tuple(AuditRow(*row) for row in cursor)


def _bid_id(bid_json: str) -> str:
    return json.loads(bid_json)["id"]


def replay_audit(rows: tuple[AuditRow, ...] | list[AuditRow]) -> Evaluation:
    """Rebuild the evaluation from the empty document by applying every row in order."""
    header: str | None = None
    bids: list[str] = []  # bid JSON in order
    ids: list[str] = []  # the id of each entry in `bids`, kept alongside to avoid re-parsing
    for row in rows:
        if row.action == CREATE:
            initial = Evaluation.model_validate_json(row.new_json or "")
            header, bids = header_json(initial), [bid.model_dump_json(round_trip=True) for bid in initial.bids]
            ids = [bid.id for bid in initial.bids]
            continue
        if header is None:
            raise ValueError(f"row #{row.seq} ({row.action}) comes before the evaluation was created")
        if row.action == ADD_BID:
            bids.append(row.new_json or "")
            ids.append(_bid_id(row.new_json or ""))
        elif row.action == REPLACE_BID:
            index = ids.index(row.target)
            bids[index], ids[index] = row.new_json or "", _bid_id(row.new_json or "")
        elif row.action == REMOVE_BID:
            index = ids.index(row.target)
            del bids[index], ids[index]
        elif row.action in (SET_WORKLOAD, SET_POLICY):
            fields = json.loads(header)
            fields["workload" if row.action == SET_WORKLOAD else "policy"] = json.loads(row.new_json or "null")
            header = json.dumps(fields)
        elif row.action not in ACTIONS:
            raise ValueError(f"row #{row.seq} has an unknown action {row.action!r}")
    if header is None:
        raise ValueError("the trail has no create row")
    return assemble(header, bids)
