"""Writes output files whole or not at all: a temporary file beside the target, then a rename."""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import IO

from clusterbid.core.interchange.errors import InterchangeError


@contextlib.contextmanager
def atomic_output(path: Path, mode: str, **open_args) -> Iterator[IO]:
    """Yield a stream; on success it replaces `path`, on any error the old file stays and no temp remains."""
    try:
        handle, temp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    except OSError as exc:
        raise InterchangeError(path, f"cannot write here ({exc.strerror or exc})") from None
    try:
        with os.fdopen(handle, mode, **open_args) as stream:
            yield stream
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temp_name, path)
    except OSError as exc:
        _remove(temp_name)
        raise InterchangeError(path, f"could not be written ({exc.strerror or exc})") from None
    except BaseException:
        _remove(temp_name)
        raise


def _remove(name: str) -> None:
    with contextlib.suppress(OSError):
        os.unlink(name)
