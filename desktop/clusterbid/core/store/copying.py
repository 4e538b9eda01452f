"""Save a copy of an open document with SQLite's online backup API, atomically."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from clusterbid.core.safe_files import OutputWriteError, replace_atomically
from clusterbid.core.store.errors import DocumentError, DocumentWriteError
from clusterbid.core.store.fileformat import SUFFIX


def backup_to(source: Path, conn: sqlite3.Connection, dest: Path) -> Path:
    """Copy the committed state of `conn` to `dest`; a failure leaves `dest` as it was.

    The backup API copies a consistent snapshot even while the document has a hot journal or
    another window is writing, which copying the file's bytes does not."""
    if dest.suffix != SUFFIX:
        raise DocumentError(dest, f"a copy's file name must end in {SUFFIX}")
    if dest.exists() and dest.resolve() == source.resolve():
        raise DocumentError(dest, "is the open document itself; choose another file for the copy")

    def build(temp: Path) -> None:
        target = sqlite3.connect(temp, isolation_level=None)
        try:
            conn.backup(target)
            target.execute("PRAGMA journal_mode = DELETE")
        finally:
            target.close()

    try:
        return replace_atomically(dest, build)
    except sqlite3.Error as exc:
        raise DocumentWriteError(
            dest, f"the copy could not be written ({exc}); nothing was written"
        ) from None
    except (
        OutputWriteError
    ) as exc:  # its message already names the file, the reason and what was kept
        raise DocumentWriteError(dest, "the copy " + str(exc).split(": ", 1)[-1]) from None
