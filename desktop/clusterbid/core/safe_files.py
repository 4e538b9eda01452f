"""The one way ClusterBid writes an output file: whole or not at all.

A temporary file in the target's own folder (so the rename never crosses file systems), flushed
and fsync'ed, then renamed over the target with os.replace (atomic on POSIX and Windows), then the
folder is fsync'ed so the rename itself survives a power cut. On any failure -- a full disk, a
read-only folder, an exception in the code producing the bytes, Ctrl+C -- the temporary file is
removed and the previous file, if any, is untouched. Used by the memo, signing in place, the XLSX
and CSV exports, the bid template, exported artefacts and `demo --force`.
"""

from __future__ import annotations

import contextlib
import os
import re
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO, Any

from clusterbid.core.errors import InputError

TEMP_SUFFIX = ".partial"
SHARED_FILE_MODE = 0o644  # a memo or export is made to be shared; mkstemp's 0600 would hide it


class OutputWriteError(InputError):
    """An output could not be written; nothing was left behind and the previous file is unchanged."""

    def __init__(self, path: Path, reason: str) -> None:
        self.path = Path(path)
        super().__init__(
            f"{self.path.name}: could not be written ({reason}); nothing was written and any "
            "previous file of that name is unchanged"
        )


def _reason(exc: OSError) -> str:
    return exc.strerror or str(exc) or type(exc).__name__


def _remove(name: str) -> None:
    with contextlib.suppress(OSError):
        os.unlink(name)


def _sync_folder(folder: Path) -> None:
    if os.name != "posix":  # Windows cannot open a directory; NTFS journals the rename itself
        return
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


@contextlib.contextmanager
def atomic_output(path: Path | str, mode: str = "wb", **open_args: Any) -> Iterator[IO[Any]]:
    """Yield a stream for the new content; on leaving the block it replaces `path`."""
    path = Path(path)
    folder = path.resolve().parent
    keep_mode = path.stat().st_mode & 0o777 if path.is_file() else SHARED_FILE_MODE
    try:
        handle, temp_name = tempfile.mkstemp(
            prefix=f".{path.name}.", suffix=TEMP_SUFFIX, dir=folder
        )
    except OSError as exc:
        raise OutputWriteError(path, _reason(exc)) from None
    with _removed_on_failure(temp_name, path):
        with os.fdopen(handle, mode, **open_args) as stream:
            yield stream
            stream.flush()
            os.fsync(stream.fileno())
        _install(temp_name, path, keep_mode)
    _sync_folder(folder)


@contextlib.contextmanager
def _removed_on_failure(temp_name: str, path: Path) -> Iterator[None]:
    """Whatever fails inside leaves no temporary file; an OS error is reported for `path`."""
    try:
        yield
    except OSError as exc:
        _remove(temp_name)
        raise OutputWriteError(path, _reason(exc)) from None
    except BaseException:
        _remove(temp_name)
        raise


def _install(temp_name: str, path: Path, mode: int) -> None:
    os.chmod(temp_name, mode)  # by name: os.fchmod is missing on Windows before Python 3.13
    os.replace(temp_name, path)


def write_bytes_atomically(path: Path | str, data: bytes) -> Path:
    """Write `data` to `path` whole or not at all; returns the path."""
    with atomic_output(path, "wb") as stream:
        stream.write(data)
    return Path(path)


def replace_atomically(path: Path | str, build: Callable[[Path], None]) -> Path:
    """For writers that need a file name (SQLite): `build(temp_path)` makes the new file beside
    `path`, which it then replaces; on failure the temporary file is removed and `path` stays."""
    path = Path(path)
    folder = path.resolve().parent
    journal = path.with_name(path.name + "-journal")
    if journal.exists():
        # SQLite would play that journal back into the new file on its first open and ruin it.
        raise OutputWriteError(
            path,
            f"a crash left {journal.name} beside it, an unfinished change that belongs to "
            "the old file; open the old file once (or copy it with `clusterbid copy`) "
            "so that the change is undone, then try again",
        )
    try:
        # The suffix is kept (".x.clusterbid" -> ".x.<random>.partial.clusterbid"): builders check it.
        handle, temp_name = tempfile.mkstemp(
            prefix=f".{path.stem}.", suffix=TEMP_SUFFIX + path.suffix, dir=folder
        )
        os.close(handle)
        os.unlink(temp_name)  # the builder creates it (SQLite refuses to build over a foreign file)
    except OSError as exc:
        raise OutputWriteError(path, _reason(exc)) from None
    with _removed_on_failure(temp_name, path):
        try:
            build(Path(temp_name))
        except InputError as exc:  # the builder's message names the temporary file: name the target
            found = re.search(r"\(([^()]*)\)", str(exc))
            raise OutputWriteError(path, found.group(1) if found else str(exc)) from None
        with open(temp_name, "rb+") as built:
            os.fsync(built.fileno())
        _install(temp_name, path, SHARED_FILE_MODE)
    _sync_folder(folder)
    return path
