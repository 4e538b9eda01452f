"""The one way ClusterBid opens a file a user names: regular files only, bytes capped while read.

Checking `st_size` and then reading the whole file trusts the path to be a file. A symlink to
/dev/zero reports size 0 and then never ends; a FIFO blocks `open()` until some other program
writes, and one fed forever never ends either; /proc files report size 0 and hold any amount.
So a path is opened without blocking (O_NONBLOCK: a FIFO with no writer opens at once, a device
opens without waiting for a line), the open descriptor is checked with fstat (what it is, not what
the path said a moment earlier), anything but a regular file is refused by name before a byte is
read, and at most `limit + 1` bytes are ever read, so a file that grows while read is still
bounded. A symlink to a regular file is followed, as users expect of a shortcut.

Callers keep their own messages: every refusal here is an OSError whose `strerror` says what the
path is ("is a named pipe (FIFO), not a file"), which their existing `cannot be read (...)`
handlers print with the file's name.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path
from typing import BinaryIO

KINDS = (
    (stat.S_ISDIR, "is a folder, not a file"),
    (stat.S_ISFIFO, "is a named pipe (FIFO), not a file: give the file itself"),
    (stat.S_ISCHR, "is a device, not a file: give the file itself"),
    (stat.S_ISBLK, "is a block device, not a file: give the file itself"),
    (stat.S_ISSOCK, "is a socket, not a file: give the file itself"),
)


class NotARegularFile(OSError):
    """The path names a device, FIFO, socket, folder or anything else that is not a plain file."""


def _kind(mode: int) -> str:
    return next((words for test, words in KINDS if test(mode)), "is not a plain file")


def open_regular(path: Path | str) -> BinaryIO:
    """Open `path` for reading if it is a regular file (following symlinks); NotARegularFile
    otherwise, and the usual FileNotFoundError / PermissionError for a missing or locked file."""
    # Asked first of the path, so a device is never opened at all (opening some devices acts:
    # a watchdog starts counting, a tape rewinds); asked again of the descriptor below, since the
    # path may be swapped between the two.
    mode = os.stat(path).st_mode
    if not stat.S_ISREG(mode):
        raise NotARegularFile(errno.EINVAL, _kind(mode), str(path))
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    flags |= getattr(os, "O_BINARY", 0)  # Windows: no newline translation
    descriptor = os.open(path, flags)
    try:
        mode = os.fstat(descriptor).st_mode
        if not stat.S_ISREG(mode):
            raise NotARegularFile(errno.EINVAL, _kind(mode), str(path))
        return os.fdopen(descriptor, "rb")
    except BaseException:
        os.close(descriptor)
        raise


def read_regular(path: Path | str, limit: int) -> bytes:
    """At most `limit + 1` bytes of a regular file: a result longer than `limit` means the file
    is over the limit (the caller says so in its own words); nothing more is ever read."""
    with open_regular(path) as handle:
        return handle.read(limit + 1)
