"""Checkpoints: the replayed state every CHECKPOINT_EVERY audit rows, so that opening a document
replays only the rows since the last one instead of its whole history.

A checkpoint is two things. In the hash chain, a `checkpoint` row whose JSON records the SHA-256
of the state the rows before it replay to; being a row of the chain, it cannot be changed without
recomputing every later hash and the recorded head, like any other row. Beside the chain, the
`checkpoint` table keeps that state itself (the latest checkpoint only): header, bids and ids as
canonical JSON. Open uses the stored state only when it hashes to what its row recorded, so an
altered table is never trusted (open then replays from the start). `clusterbid audit` replays
every row from the first and checks each checkpoint row against its own replay, so a forged
checkpoint (a digest of a state the rows never reached) is reported at that row.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from dataclasses import dataclass

from clusterbid.core.store import audit

CHECKPOINT = audit.CHECKPOINT
# Rows between checkpoints: opening replays and re-hashes at most this many rows, whatever the
# length of the history (at 1,000 bids a checkpoint costs one 1 MB row in its own table).
CHECKPOINT_EVERY = 500
# The checkpoint row also records the SHA-256 of each stored text as it was spelled (issue 32): at
# open, a row still spelled so holds the checkpoint's value without parsing both spellings. It
# speeds the open only; the state digest above is what the full audit checks.
SPELLED = "stored_spelling_sha256"


def canonical(json_text: str) -> str:
    """One spelling of a JSON value: a bid replayed from an edit row (Python's json) and the same
    bid as the store wrote it (pydantic) differ in layout only, never after this."""
    return json.dumps(
        json.loads(json_text), sort_keys=True, separators=(",", ":"), ensure_ascii=False
    )


def state_sha256(
    header: str,
    bids: list[str],
    ids: list[str],
    *,
    already_canonical: bool = False,
    cache: dict[str, bytes] | None = None,
) -> str:
    """The digest a checkpoint row records: header and bids in canonical JSON, and the bid ids.
    `cache` keeps each text's digest across calls (a replay meets many checkpoints)."""
    cache = {} if cache is None else cache

    def part(text: str) -> bytes:
        if text not in cache:
            cache[text] = hashlib.sha256(
                (text if already_canonical else canonical(text)).encode("utf-8")
            ).digest()
        return cache[text]

    digest = hashlib.sha256(part(header))
    for bid in bids:
        digest.update(part(bid))
    digest.update(json.dumps(ids, ensure_ascii=False).encode("utf-8"))
    return digest.hexdigest()


@dataclass(frozen=True)
class Checkpoint:
    """The state at a checkpoint row, verified against the digest that row recorded."""

    row: audit.AuditRow
    header: str
    bids: list[str]
    ids: list[str]


def spelling(text: str) -> str:
    """The SHA-256 of a stored row's text exactly as it is spelled (not canonical)."""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def recorded_spellings(row: audit.AuditRow) -> tuple[str, dict[str, str]] | None:
    """(header, bid id -> digest) of the stored texts the checkpoint was taken from; None for a
    checkpoint written before they were recorded, or one whose record is not that shape."""
    try:
        spelled = json.loads(row.new_json or "{}").get(SPELLED)
        header, bids = spelled["header"], spelled["bids"]
    except (ValueError, AttributeError, KeyError, TypeError):
        return None
    if not isinstance(header, str) or not isinstance(bids, dict):
        return None
    if not all(isinstance(k, str) and isinstance(v, str) for k, v in bids.items()):
        return None
    return header, bids


def recorded_digest(row: audit.AuditRow) -> str | None:
    try:
        value = json.loads(row.new_json or "{}").get("state_sha256")
    except (ValueError, AttributeError):
        return None
    return value if isinstance(value, str) else None


def last_checkpoint_seq(conn: sqlite3.Connection) -> int:
    row = conn.execute("SELECT max(seq) FROM audit WHERE action = ?", (CHECKPOINT,)).fetchone()
    return int(row[0] or 0)


def due(conn: sqlite3.Connection, head_seq: int) -> bool:
    """A checkpoint is written once CHECKPOINT_EVERY rows have gone by since the last one."""
    return head_seq - last_checkpoint_seq(conn) >= CHECKPOINT_EVERY


def write(conn: sqlite3.Connection, head: tuple[int, str], who: str) -> audit.AuditRow:
    """Append a checkpoint row for the stored state and keep that state (in the caller's
    transaction, after the commit's own rows, so the state is the one those rows replay to)."""
    stored_header = conn.execute(
        "SELECT header_json FROM evaluation WHERE singleton = 1"
    ).fetchone()[0]
    stored = list(conn.execute("SELECT bid_id, bid_json FROM bid ORDER BY position"))
    header = canonical(stored_header)
    bids = [canonical(text) for _, text in stored]
    ids = [bid_id for bid_id, _ in stored]
    digest = state_sha256(header, bids, ids, already_canonical=True)
    spelled = {"header": spelling(stored_header), "bids": {i: spelling(t) for i, t in stored}}
    row = audit.append(
        conn,
        head,
        who=who,
        action=CHECKPOINT,
        target=None,
        old_json=None,
        new_json=json.dumps(
            {"state_sha256": digest, "bids": len(bids), SPELLED: spelled}, sort_keys=True
        ),
    )
    conn.execute("DELETE FROM checkpoint")
    conn.execute(
        "INSERT INTO checkpoint (seq, header_json, bids_json, ids_json) VALUES (?, ?, ?, ?)",
        (
            row.seq,
            header,
            json.dumps(bids, ensure_ascii=False),
            json.dumps(ids, ensure_ascii=False),
        ),
    )
    return row


def load_latest(conn: sqlite3.Connection) -> Checkpoint | None:
    """The latest checkpoint whose kept state hashes to what its row recorded; None when there is
    none, when its state is missing (an older document) or when it does not match (then the
    caller replays from the first row, and a changed table costs time, never trust)."""
    try:
        found = conn.execute(
            "SELECT seq, at, who, action, target, old_json, new_json, hash FROM audit "
            "WHERE action = ? ORDER BY seq DESC LIMIT 1",
            (CHECKPOINT,),
        ).fetchone()
        if found is None:
            return None
        row = audit.AuditRow(*found)
        kept = conn.execute(
            "SELECT header_json, bids_json, ids_json FROM checkpoint WHERE seq = ?", (row.seq,)
        ).fetchone()
    except sqlite3.Error:  # no checkpoint table: a format-3 file read as it is (verify, audit)
        return None
    if kept is None:
        return None
    try:
        header, bids, ids = kept[0], json.loads(kept[1]), json.loads(kept[2])
        if not (
            isinstance(bids, list)
            and isinstance(ids, list)
            and len(bids) == len(ids)
            and all(isinstance(item, str) for item in (*bids, *ids))
        ):
            return None
    except (ValueError, TypeError):
        return None
    if state_sha256(header, bids, ids, already_canonical=True) != recorded_digest(row):
        return None
    return Checkpoint(row, header, bids, ids)
