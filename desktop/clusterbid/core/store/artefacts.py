"""Evidence artefacts (logs, spreadsheets, PDFs) kept inside the document as checked blobs."""

from __future__ import annotations

import hashlib
import json
import sqlite3
from dataclasses import dataclass
from pathlib import Path

from clusterbid.core.safe_files import OutputWriteError, write_bytes_atomically
from clusterbid.core.store.errors import ArtefactError, DocumentWriteError

# Large enough for a full nccl-tests sweep log or a scanned PDF; small enough that a document
# still fits on a USB stick and opens quickly on an officer's laptop.
MAX_ARTEFACT_BYTES = 50 * 1024 * 1024
MAX_NAME_CHARS = 255


@dataclass(frozen=True)
class ArtefactInfo:
    id: int
    bid_id: str | None
    name: str
    sha256: str
    size: int
    media_type: str


@dataclass(frozen=True)
class NewArtefact:
    """A raw evidence file to keep with an edit (the app's wizard attaches logs this way)."""

    bid_id: str | None
    name: str
    data: bytes
    media_type: str = "text/plain"


def attach_payload(name: str, data: bytes, media_type: str, bid_id: str | None, sha256: str) -> str:
    """The attach row's value: what the audit compares the stored artefact with (verify.py)."""
    return json.dumps(
        {
            "name": name,
            "sha256": sha256,
            "size": len(data),
            "media_type": media_type,
            "bid_id": bid_id,
        },
        sort_keys=True,
        ensure_ascii=False,
    )


def check_artefact(path: Path, name: str, data: bytes, media_type: str) -> str:
    """Refuse what cannot be stored; return the SHA-256 of the bytes."""
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise ArtefactError(path, f"artefact {name!r} must be given as bytes")
    if not name or len(name) > MAX_NAME_CHARS or "/" in name or "\\" in name:
        raise ArtefactError(
            path,
            f"artefact name {name!r} must be a plain file name of 1-{MAX_NAME_CHARS} characters",
        )
    if not media_type or len(media_type) > 127:
        raise ArtefactError(path, f"artefact {name!r} needs a media type such as text/plain")
    size = len(data)
    if size > MAX_ARTEFACT_BYTES:
        raise ArtefactError(
            path,
            f"artefact {name!r} is {size / 1e6:.1f} MB; the limit is "
            f"{MAX_ARTEFACT_BYTES // (1024 * 1024)} MiB per "
            "artefact: attach a compressed or trimmed copy",
        )
    return hashlib.sha256(data).hexdigest()


def insert(
    conn: sqlite3.Connection,
    *,
    bid_id: str | None,
    name: str,
    data: bytes,
    sha256: str,
    media_type: str,
) -> ArtefactInfo:
    cursor = conn.execute(
        "INSERT INTO artefact (bid_id, name, sha256, size, content, media_type) VALUES (?, ?, ?, "
        "?, ?, ?)",
        (bid_id, name, sha256, len(data), bytes(data), media_type),
    )
    assert cursor.lastrowid is not None  # an INSERT always sets it
    return ArtefactInfo(cursor.lastrowid, bid_id, name, sha256, len(data), media_type)


def list_artefacts(conn: sqlite3.Connection) -> tuple[ArtefactInfo, ...]:
    rows = conn.execute(
        "SELECT id, bid_id, name, sha256, size, media_type FROM artefact ORDER BY id"
    )
    return tuple(ArtefactInfo(*row) for row in rows)


def read_bytes(path: Path, conn: sqlite3.Connection, artefact_id: int) -> bytes:
    row = conn.execute(
        "SELECT name, sha256, size, content FROM artefact WHERE id = ?", (artefact_id,)
    ).fetchone()
    if row is None:
        raise ArtefactError(path, f"has no artefact number {artefact_id}")
    name, sha256, size, content = row
    # Re-hash on the way out: an exported artefact is evidence, so it must be the bytes received.
    if len(content) != size or hashlib.sha256(content).hexdigest() != sha256:
        raise ArtefactError(
            path, f"artefact {name!r} no longer matches its recorded SHA-256; it was altered"
        )
    return bytes(content)


def write_file(source: Path, dest: Path, data: bytes) -> Path:
    """Write `data` to `dest` whole or not at all (the one safe writer)."""
    try:
        return write_bytes_atomically(dest, data)
    except OutputWriteError as exc:
        raise DocumentWriteError(source, str(exc)) from None
