"""The re-scored table never waits behind the analyses (issue 32 item 1): a cancelled Monte Carlo
stops only between its steps, and with both of the runner's threads taken by the last edit's
bands and value of information, the next edit's scoring used to wait in the queue for seconds."""

from __future__ import annotations

import threading

from clusterbid.gui.background import BackgroundTasks

HANG_GUARD_MS = 20_000


def test_the_score_runs_while_the_analyses_hold_every_shared_thread(qtbot) -> None:
    tasks = BackgroundTasks(threads=2, own_thread=("score",))
    release, started = threading.Event(), threading.Semaphore(0)

    def hold(progress) -> str:
        started.release()
        release.wait(HANG_GUARD_MS / 1000)  # what a long analysis does to its thread
        return "analysed"

    try:
        tasks.run("uncertainty", hold, lambda _result: None)
        tasks.run("value of information", hold, lambda _result: None)
        assert started.acquire(timeout=10) and started.acquire(timeout=10)  # both threads taken
        scored: list[object] = []
        tasks.run("score", lambda _progress: "scored", scored.append)
        qtbot.waitUntil(lambda: scored == ["scored"], timeout=HANG_GUARD_MS)
        assert not release.is_set() and tasks.running() == ["uncertainty", "value of information"]
    finally:
        release.set()
        assert tasks.wait_for_done(HANG_GUARD_MS)


def test_the_window_scores_on_its_own_thread(window) -> None:
    # The app's runner is built with the score, and what its ranks rest on after it, each on a
    # thread of its own (gui/window_parts.py).
    assert window.tasks._own_thread == frozenset({"score", "default effects"})
