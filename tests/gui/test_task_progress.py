"""Long background work shows in the status bar with a Cancel that stops it; scoring never does."""

from __future__ import annotations

import threading

from PySide6.QtCore import Qt
from tests.gui.conftest import wait_for_scoring
from tests.gui.waiting import HANG_GUARD_MS


def test_cancel_stops_long_work_and_its_result_is_dropped(qtbot, window):
    wait_for_scoring(qtbot, window)
    # The bands follow the scores as a task of their own: once they are in, nothing else reports
    # progress, so the bar is this test's task's alone (on a busy machine they came later).
    qtbot.waitUntil(
        lambda: window.model.band_range() is not None and not window.tasks.is_busy(),
        timeout=HANG_GUARD_MS,
    )
    progress = window.task_progress
    assert not progress.bar.isVisibleTo(window)  # scoring ran: no bar for it
    release, results = threading.Event(), []

    def work(report):
        report(0.4, "reading")
        release.wait(10)
        report(0.9, "writing")  # raises: cancelled meanwhile, so nothing after this runs
        return "done"

    window.tasks.run("slow import", work, results.append)
    qtbot.waitUntil(lambda: progress.bar.value() == 40, timeout=HANG_GUARD_MS)
    assert progress.bar.isVisibleTo(window) and progress.cancel_button.isVisibleTo(window)
    assert progress.bar.format().startswith("reading")
    qtbot.mouseClick(progress.cancel_button, Qt.MouseButton.LeftButton)
    release.set()
    assert window.statusBar().currentMessage() == "Cancelled."
    assert not window.tasks.is_busy("slow import")
    assert not progress.bar.isVisibleTo(window) and progress.bar.value() == 0
    window.tasks.wait_for_done(10_000)
    qtbot.wait(50)  # a stale result would arrive through the event loop
    assert results == []
