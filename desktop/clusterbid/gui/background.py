"""The one way the GUI runs long work: a thread pool, progress, cancel, results by signal."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, QRunnable, QThreadPool, Signal

# Raised inside a task by `Progress`, or by an operation's checkpoint, once the user (or a newer
# run) cancelled it: one class, so the runner drops both quietly.
from clusterbid.operations.progress import Cancelled


class Progress:
    """Handed to the work function: call it with (fraction, message); it raises when cancelled."""

    def __init__(self, relay: _Relay, generation: int) -> None:
        self._relay = relay
        self._generation = generation
        self.cancelled = False

    def __call__(self, fraction: float, message: str = "") -> None:
        if self.cancelled:
            raise Cancelled
        self._relay.progressed.emit(self._generation, float(fraction), message)


class _Relay(QObject):
    # Lives in the GUI thread, so signals emitted from the worker arrive there (queued).
    done = Signal(int, object)
    failed = Signal(int, object)
    progressed = Signal(int, float, str)


class _Runnable(QRunnable):
    def __init__(
        self, work: Callable[[Progress], object], progress: Progress, relay: _Relay, generation: int
    ) -> None:
        super().__init__()
        self._work, self._progress, self._relay, self._generation = (
            work,
            progress,
            relay,
            generation,
        )

    def run(self) -> None:
        # Superseded (cancelled) while it waited in its pool's queue: a newer run of its name has
        # the figures; running it anyway held the thread the newer one waits for (issue 32 item 1).
        if self._progress.cancelled:
            return
        try:
            result = self._work(self._progress)
        except Cancelled:
            return
        except Exception as exc:  # noqa: BLE001 (handed to the GUI thread, which shows it)
            self._tell(self._relay.failed, exc)
            return
        self._tell(self._relay.done, result)

    def _tell(self, signal: Any, value: object) -> None:
        # A window closed while its task ran (or the app quit) has deleted the relay: nobody is
        # left to tell, and an exception escaping here would reach Qt's thread pool, which aborts
        # on it ("exceptions thrown in worker threads must be caught").
        try:
            signal.emit(self._generation, value)
        except RuntimeError:
            pass


# A run in flight: its generation, its progress (cancel flag), and what to call with its result
# or with the exception it raised.
_Run = tuple[int, "Progress", Callable[[object], None], Callable[[Exception], None] | None]


class BackgroundTasks(QObject):
    """Runs named tasks; a new run of a name supersedes the old one, whose result is dropped."""

    busy_changed = Signal(str, bool)  # task name, running
    progressed = Signal(str, float, str)  # task name, fraction, message

    def __init__(
        self, parent: QObject | None = None, threads: int = 2, own_thread: tuple[str, ...] = ()
    ) -> None:
        super().__init__(parent)
        self._pool = QThreadPool(self)
        self._pool.setMaxThreadCount(threads)
        # Tasks named in `own_thread` run each on a thread of its own, never queued behind the
        # others: a cancelled Monte Carlo stops only between its steps, and the re-scored table
        # waited behind it for seconds at 500 bids (issue 32 item 1); nor behind each other (the
        # next edit's score behind the last one's default effects).
        self._own_thread = frozenset(own_thread)
        self._own_pools = {name: QThreadPool(self) for name in own_thread}
        for own_pool in self._own_pools.values():
            own_pool.setMaxThreadCount(1)
        self._relay = _Relay(self)
        self._relay.done.connect(self._on_done)
        self._relay.failed.connect(self._on_failed)
        self._relay.progressed.connect(self._on_progress)
        self._generations = itertools.count(1)
        self._current: dict[str, _Run] = {}

    def run(
        self,
        name: str,
        work: Callable[[Progress], object],
        on_done: Callable[[object], None],
        on_error: Callable[[Exception], None] | None = None,
    ) -> int:
        self.cancel(name)
        generation = next(self._generations)
        progress = Progress(self._relay, generation)
        self._current[name] = (generation, progress, on_done, on_error)
        self.busy_changed.emit(name, True)
        pool = self._own_pools.get(name, self._pool)
        pool.start(_Runnable(work, progress, self._relay, generation))
        return generation

    def cancel(self, name: str) -> None:
        entry = self._current.pop(name, None)
        if entry is not None:
            entry[1].cancelled = True
            self.busy_changed.emit(name, False)

    def running(self) -> list[str]:
        """The names of the tasks started and not yet finished or cancelled."""
        return list(self._current)

    def is_busy(self, name: str | None = None) -> bool:
        return bool(self._current) if name is None else name in self._current

    def wait_for_done(self, msecs: int = 30_000) -> bool:
        # Both pools waited for, whatever the first says: a memo being written in the shared pool
        # is finished before the document closes even when a scoring run outlasts the wait.
        own_done = [pool.waitForDone(msecs) for pool in self._own_pools.values()]
        return self._pool.waitForDone(msecs) and all(own_done)

    def _take(self, generation: int) -> tuple[str, _Run] | None:
        for name, entry in self._current.items():
            if entry[0] == generation:
                del self._current[name]
                self.busy_changed.emit(name, False)
                return name, entry
        return None  # stale: cancelled or superseded by a newer run

    def _on_done(self, generation: int, result: object) -> None:
        taken = self._take(generation)
        if taken is not None:
            taken[1][2](result)

    def _on_failed(self, generation: int, error: Exception) -> None:  # what the runnable caught
        taken = self._take(generation)
        if taken is not None and taken[1][3] is not None:
            taken[1][3](error)

    def _on_progress(self, generation: int, fraction: float, message: str) -> None:
        for name, entry in self._current.items():
            if entry[0] == generation:
                self.progressed.emit(name, fraction, message)
