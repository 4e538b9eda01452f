"""The audit's check of the raw files a document keeps (evidence, acceptance results): each one,
in order, is the file its attach row recorded, its fields and its bytes (SHA-256)."""

from __future__ import annotations

import hashlib
import json
import sqlite3

from clusterbid.core.store.audit import AuditRow

ARTEFACT_FIELDS = ("name", "sha256", "size", "media_type", "bid_id")


def check_artefacts(
    conn: sqlite3.Connection, attached: list[AuditRow]
) -> tuple[int | None, str | None]:
    """Each stored artefact, in order, must be the one its attach row recorded, byte for byte."""
    columns = {info[1] for info in conn.execute("PRAGMA table_info(artefact)")}
    media = "media_type" if "media_type" in columns else "NULL"  # format 1 had no media types
    stored = conn.execute(
        f"SELECT id, bid_id, name, sha256, size, {media} FROM artefact ORDER BY id"
    ).fetchall()
    if len(stored) != len(attached):
        return None, (
            f"the trail records {len(attached)} attached artefacts but the document holds "
            f"{len(stored)}: "
            "artefacts were removed or added outside ClusterBid"
        )
    for row, (artefact_id, bid_id, name, sha256, size, media_type) in zip(attached, stored):
        recorded = json.loads(row.new_json or "{}")
        actual = {
            "name": name,
            "sha256": sha256,
            "size": size,
            "media_type": media_type,
            "bid_id": bid_id,
        }
        # Fields an older trail did not record (media_type before format 2) cannot be compared;
        # name and sha256 were always recorded.
        changed = [
            field
            for field in ARTEFACT_FIELDS
            if (field in recorded or field in ("name", "sha256"))
            and recorded.get(field) != actual[field]
            and not (field == "media_type" and media == "NULL")
        ]
        if changed:
            return row.seq, (
                f"artefact {recorded.get('name')!r} (row #{row.seq}) was altered outside "
                "ClusterBid: "
                f"its {', '.join(changed)} no longer match the trail"
            )
        # One blob at a time: a document holds up to many 50 MiB artefacts.
        (content,) = conn.execute(
            "SELECT content FROM artefact WHERE id = ?", (artefact_id,)
        ).fetchone()
        if len(content) != size or hashlib.sha256(content).hexdigest() != sha256:
            return (
                row.seq,
                f"the bytes of artefact {name!r} (row #{row.seq}) no longer match their SHA-256",
            )
    return None, None
