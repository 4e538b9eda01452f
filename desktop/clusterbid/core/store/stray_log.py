"""A stray write-ahead log merged only when the user confirms (issue 35 item 2).

ClusterBid keeps a rollback journal and never writes a -wal. One found beside a document was put
there by something else; opening for editing would merge it for good, so every verb refuses it by
name, and `clusterbid audit` reads the document without it. When the officer knows where the log
came from (a crash of another SQLite tool they used on purpose, say) and confirms, this merges it,
but never blindly: the document and the log are copied aside first, and if the merged document
fails any check an open makes (identity, integrity, schema guard) or its audit trail (the
whole chain, as `clusterbid audit` reads it) both are put back
as they were and the refusal says why.
"""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

from clusterbid.core.errors import InputError
from clusterbid.core.store.errors import DocumentError

KEPT_SUFFIX = ".before-merge"


def stray_log_of(path: Path) -> Path | None:
    wal = path.with_name(path.name + "-wal")
    return wal if wal.exists() else None


def merge_stray_log(path: Path) -> list[Path]:
    """Merge the -wal beside `path` into it and check the result as an open does; returns the
    copies kept aside (document and log, as they were). On a failed check the document and the
    log are restored, the copies removed, and a DocumentError names the check."""
    from clusterbid.core.store.document import EvaluationDocument
    from clusterbid.core.store.verify import verify_audit_chain

    path = Path(path)
    wal = stray_log_of(path)
    if wal is None:
        raise DocumentError(path, "has no write-ahead log beside it: nothing to merge")
    with path.open("rb") as file:
        header = file.read(20)
    if len(header) < 20 or header[18] != 2:
        # SQLite reads a log only for a file whose header is in WAL mode (bytes 18-19 are 2):
        # this one would be ignored, so it cannot hold this document's changes.
        raise DocumentError(
            path,
            f"{wal.name} cannot belong to it: the document is not in write-ahead mode, so no "
            "SQLite program would read that log. Move the log aside to open the document",
        )
    kept = [path.with_name(path.name + KEPT_SUFFIX), wal.with_name(wal.name + KEPT_SUFFIX)]
    for source, copy in zip((path, wal), kept, strict=True):
        shutil.copy2(source, copy)
    try:
        _apply(path)
        EvaluationDocument.open(path).close()  # every check an editing open makes
        report = verify_audit_chain(path)  # and the whole trail, as `clusterbid audit` reads it
        if not report.ok:
            raise DocumentError(path, f"its audit trail does not hold: {report.reason}")
    except (InputError, sqlite3.Error) as exc:
        _restore(path, wal, kept)
        raise DocumentError(
            path,
            f"the write-ahead log's changes were not kept: with them the document fails its "
            f"checks ({exc}). The document and the log are as they were",
        ) from None
    return kept


def _apply(path: Path) -> None:
    # A plain connection lets SQLite read the log; the checkpoint writes it in, and DELETE mode
    # removes it and puts the header back in rollback mode, as our documents keep it.
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        conn.execute("PRAGMA journal_mode = DELETE")
    finally:
        conn.close()


def _restore(path: Path, wal: Path, kept: list[Path]) -> None:
    shutil.copy2(kept[0], path)
    shutil.copy2(kept[1], wal)
    for copy in kept:
        copy.unlink(missing_ok=True)
