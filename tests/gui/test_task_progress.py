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


def test_the_bar_repaints_per_step_of_five_percent_not_per_percent(qtbot, window):
    """Issue 32: the value of information reports each whole percent, and each new value of the
    bar is a repaint on the window's thread. Counted, not timed."""
    from clusterbid.gui.task_progress import STEP_PERCENT

    wait_for_scoring(qtbot, window)
    qtbot.waitUntil(lambda: not window.tasks.is_busy(), timeout=HANG_GUARD_MS)
    progress = window.task_progress
    shown: list[int] = []
    progress.bar.valueChanged.connect(shown.append)
    for percent in range(40, 101):  # as the value of information reports: 0.40 to 1.00
        progress._progressed(percent / 100, "value of information")
    # 40, 45, ..., 100: one value per step of 5 points (13), the first with the new message.
    assert shown == list(range(40, 101, STEP_PERCENT))
    progress._progressed(1.0, "writing")  # a new message at the same value is still shown
    assert progress.bar.format() == "writing %p%"
