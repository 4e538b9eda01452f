"""The ranking table as the app last showed it, kept in the evaluation document so the next start
paints it at once, before the models, numpy and scoring are imported (issue 24).

It is a display cache, not a record: it lives in the document's `meta` table beside the audit
head, is never audited, and is shown only while the document's audit head is still the one it was
computed at (any edit since makes it stale and it is ignored) and only when it carries the seal
this user's own key makes for it (core/display_seal.py): a table written by anyone else, with
the head copied beside it, is not shown. The window it fills says that these
are the scores as last shown and is replaced by the real, recomputed window within a second.
Reading it needs only sqlite3 and json: that is its point.
"""

from __future__ import annotations

import json
import sqlite3
from contextlib import closing
from pathlib import Path
from typing import Any

from clusterbid.core.display_seal import seal, sealed_by, user_key

HEAD_KEY = "audit_head"  # the audit trail's head, "seq hash" (core/store/audit.py writes it)
SHOWN_KEY = "shown_scorecard"
MAX_SHOWN_CHARACTERS = 500_000  # bytes: a few hundred bids' rows; a bigger value is not ours


def write_shown(
    conn: sqlite3.Connection,
    head: tuple[int, str],
    title: str,
    columns: list[str],
    rows: list[list[str]],
) -> None:
    """Keep the table as shown at audit head `head` (one small transaction of its own), sealed
    with this user's key; without a key (none can be made) it is not kept at all."""
    key = user_key(create=True)
    if key is None:
        return
    payload: dict[str, Any] = {
        "head": f"{head[0]} {head[1]}",
        "title": title,
        "columns": columns,
        "rows": rows,
    }
    payload["seal"] = seal(key, _document_id(conn), _sealed_bytes(payload))
    # Bytes (a BLOB), so a reader can learn the size without loading the value (read_shown).
    conn.execute(
        "INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)",
        (SHOWN_KEY, json.dumps(payload, ensure_ascii=False).encode("utf-8")),
    )


def _document_id(conn: sqlite3.Connection) -> str:
    """The first audit row's hash: the table is sealed to this document, not only to a head."""
    first = conn.execute("SELECT hash FROM audit WHERE seq = 1").fetchone()
    return str(first[0]) if first else ""


def _sealed_bytes(payload: dict[str, Any]) -> bytes:
    fields = {name: payload.get(name) for name in ("head", "title", "columns", "rows")}
    return json.dumps(fields, sort_keys=True, ensure_ascii=False).encode("utf-8")


def restamp_shown(
    conn: sqlite3.Connection, old_head: tuple[int, str], new_head: tuple[int, str]
) -> None:
    """Inside a commit that only records what was done (a memo exported, a signature, a file
    kept): the scores kept at `old_head` are still the evaluation's, so they are kept at
    `new_head`, the head the commit leaves. A table already stale stays stale."""
    raw = conn.execute(
        "SELECT CASE WHEN typeof(value) = 'blob' AND length(value) <= ? THEN value END "
        "FROM meta WHERE key = ?",
        (MAX_SHOWN_CHARACTERS, SHOWN_KEY),
    ).fetchone()
    if raw is None or not isinstance(raw[0], bytes):
        return
    try:
        payload = json.loads(raw[0].decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return
    if (
        _well_formed(payload)
        and payload.get("head") == f"{old_head[0]} {old_head[1]}"
        and sealed_by(
            user_key(create=False), _document_id(conn), _sealed_bytes(payload), payload.get("seal")
        )
    ):
        write_shown(conn, new_head, payload["title"], payload["columns"], payload["rows"])


def read_shown(path: Path | str) -> dict[str, Any] | None:
    """The table last shown for the document at `path`, or None when there is none, it is stale
    (the document changed since), or anything about it is not as written."""
    path = Path(path)
    if path.suffix != ".clusterbid" or not path.is_file():
        return None
    try:
        with closing(
            sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, timeout=0.2)
        ) as conn:
            # A hostile document's huge value is never loaded: the length of a BLOB comes from its
            # record header, and a value of any other type is not ours (TEXT would be read to count).
            head = conn.execute("SELECT value FROM meta WHERE key = ?", (HEAD_KEY,)).fetchone()
            raw = conn.execute(
                "SELECT CASE WHEN typeof(value) = 'blob' AND length(value) <= ? THEN value END "
                "FROM meta WHERE key = ?",
                (MAX_SHOWN_CHARACTERS, SHOWN_KEY),
            ).fetchone()
            document_id = _document_id(conn)
    except sqlite3.Error:
        return None
    raw, head = (raw or (None,))[0], (head or (None,))[0]
    if not isinstance(raw, bytes) or not isinstance(head, str):
        return None
    try:
        payload = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return None
    if not _well_formed(payload) or payload["head"] != head:
        return None
    return (
        payload
        if sealed_by(
            user_key(create=False), document_id, _sealed_bytes(payload), payload.get("seal")
        )
        else None
    )


def _well_formed(payload: object) -> bool:
    if not isinstance(payload, dict) or not isinstance(payload.get("title"), str):
        return False
    columns, rows = payload.get("columns"), payload.get("rows")
    return (
        isinstance(columns, list)
        and all(isinstance(c, str) for c in columns)
        and isinstance(rows, list)
        and all(
            isinstance(r, list) and len(r) == len(columns) and all(isinstance(c, str) for c in r)
            for r in rows
        )
    )
