"""The document's writes off the window's thread: one at a time, in the order they were made.

Each edit's SQLite transaction (its validation, diff, audit row, state fingerprint and the
synchronous write to disk) ran on the window's thread: ~26 ms of CPU per edit at 500 bids, on
top of the wait for the disk (issue 32). The window now shows the edit at once and hands its
commit to this lane: a background runner with one thread, so the audit trail takes the edits in
the order the officer made them. A refused commit drops every commit queued after it (each was
made on top of the refused state) until the window has taken the refusal in and rolled back;
nothing is written for any of them.
"""

from __future__ import annotations

import itertools
import threading
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from PySide6.QtCore import QObject

from clusterbid.gui.background import BackgroundTasks


class Dropped(Exception):
    """A commit not attempted: an earlier one, which it was made on top of, was refused."""


@dataclass(eq=False)
class Commit:
    """One queued write. `outcome` is set on the lane's thread: True once written, the refusal
    (an exception) otherwise; None while queued or running."""

    ticket: int
    epoch: int
    target: Any = None  # the evaluation the write brings the document to (None: not an edit)
    outcome: object = None
    delivered: bool = False
    payload: dict[str, Any] = field(default_factory=dict)

    @property
    def finished(self) -> bool:
        return self.outcome is not None

    @property
    def written(self) -> bool:
        return self.outcome is True


class CommitLane(QObject):
    """Runs writes on one background thread in the order submitted; `deliver` hands each finished
    write to the window's thread in that order (called by the runner, or by `settle`)."""

    def __init__(
        self, on_finished: Callable[[Commit], None], parent: QObject | None = None
    ) -> None:
        super().__init__(parent)
        self._runner = BackgroundTasks(self, threads=1)  # one thread: the trail's order is kept
        self._on_finished = on_finished
        self._queue: deque[Commit] = deque()
        self._tickets = itertools.count(1)
        self.epoch = 0  # the window's: raised once it has rolled back after a refusal
        self._refused_epoch = -1  # the lane's: commits of this epoch (or older) are dropped
        self.lock = threading.Lock()  # held around each write: one user of the connection at once

    def submit(self, write: Callable[[], object], target: Any = None) -> Commit:
        """Queue `write` (called on the lane's thread; raising refuses it)."""
        commit = Commit(next(self._tickets), self.epoch, target)
        self._queue.append(commit)
        self._runner.run(
            f"commit {commit.ticket}",
            lambda _progress: self._run(commit, write),
            lambda _result: self.deliver(),
            lambda _error: self.deliver(),
        )
        return commit

    def _run(self, commit: Commit, write: Callable[[], object]) -> None:
        with self.lock:
            if commit.epoch <= self._refused_epoch:
                commit.outcome = Dropped()
                return
            try:
                write()
            except Exception as exc:  # noqa: BLE001 (the window says why, and rolls back)
                self._refused_epoch = commit.epoch
                commit.outcome = exc
                return
            commit.outcome = True

    def unfinished(self) -> bool:
        """True while a submitted write is queued or running."""
        return any(not commit.finished for commit in self._queue)

    def undelivered(self) -> bool:
        """True while a submitted write has not been handed to the window yet (queued, running,
        or finished with its outcome, a refusal perhaps, still on its way to the window)."""
        return bool(self._queue)

    def settle(self) -> None:
        """Wait (idle, the GIL released) until every submitted write has finished, then deliver
        them: whoever reads the document next sees every edit made before."""
        if self._queue:
            self._runner.wait_for_done(-1)  # bounded by SQLite's busy timeout per write
            self.deliver()

    def deliver(self) -> None:
        """Hand the finished writes at the head of the queue to the window, oldest first."""
        while self._queue and self._queue[0].finished:
            commit = self._queue.popleft()
            if not commit.delivered:
                commit.delivered = True
                self._on_finished(commit)
