"""Save a copy of an open document with SQLite's online backup API, atomically."""

from __future__ import annotations

import os
import sqlite3
import tempfile
from pathlib import Path

from clusterbid.core.store.errors import DocumentError, DocumentWriteError
from clusterbid.core.store.fileformat import SUFFIX


def backup_to(source: Path, conn: sqlite3.Connection, dest: Path) -> Path:
    """Copy the committed state of `conn` to `dest`; a failure leaves `dest` as it was."""
    if dest.suffix != SUFFIX:
        raise DocumentError(dest, f"a copy's file name must end in {SUFFIX}")
    if dest.exists() and dest.resolve() == source.resolve():
        raise DocumentError(dest, "is the open document itself; choose another file for the copy")
    temp_name: str | None = None
    try:
        # The copy is built beside its destination and renamed over it, so a reader (or a crash)
        # never sees a half-written copy and a disk-full error leaves no stray file behind.
        handle, temp_name = tempfile.mkstemp(prefix=f".{dest.name}.", suffix=".part", dir=dest.parent)
        os.close(handle)
        target = sqlite3.connect(temp_name, isolation_level=None)
        try:
            conn.backup(target)
            target.execute("PRAGMA journal_mode = DELETE")
        finally:
            target.close()
        with open(temp_name, "rb+") as flushed:
            os.fsync(flushed.fileno())
        os.replace(temp_name, dest)
        temp_name = None
    except (OSError, sqlite3.Error) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise DocumentWriteError(dest, f"the copy could not be written ({reason}); nothing was written") from None
    finally:
        if temp_name is not None:
            Path(temp_name).unlink(missing_ok=True)
    return dest
