"""What every operation takes besides its inputs: a progress callback and a cancel token.

The command line passes `no_progress` and a token nobody cancels; the app passes its background
runner's `Progress`, which is both (calling it reports, its `cancelled` flag is the token). An
operation calls `checkpoint(cancel)` before each step that writes, so a cancel never leaves half
a result: whatever it stops, it stops before a file or an audit row is written.
"""

from __future__ import annotations

from typing import Protocol


class Cancelled(Exception):
    """Raised inside an operation once its token is cancelled; the runner drops the task quietly."""


class ProgressCallback(Protocol):
    def __call__(self, fraction: float, message: str = "") -> None: ...


class CancelToken(Protocol):
    @property
    def cancelled(self) -> bool: ...


class CancelFlag:
    """A token set from outside (another thread, a signal handler), never by the operation."""

    def __init__(self) -> None:
        self.cancelled = False

    def cancel(self) -> None:
        self.cancelled = True


def no_progress(fraction: float, message: str = "") -> None:
    """The command line's callback: its output is the result, printed once the operation ends."""


class _NeverCancelled:
    """The command line's token: Ctrl-C stops the whole process instead."""

    @property
    def cancelled(self) -> bool:
        return False


NEVER_CANCELLED: CancelToken = _NeverCancelled()


def checkpoint(cancel: CancelToken) -> None:
    """Stop here (raise `Cancelled`) when the token was cancelled."""
    if cancel.cancelled:
        raise Cancelled
