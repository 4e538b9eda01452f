"""The status bar's progress bar and Cancel button for the window's long background work."""

from __future__ import annotations

from PySide6.QtWidgets import QMainWindow, QProgressBar, QPushButton

from clusterbid.gui.background import BackgroundTasks

# Scoring is quick and runs on every edit: it never shows the bar (and Cancel leaves it alone).
QUIET_TASKS = ("score",)
# The bar moves in steps of this many percent: each new value repaints it at once, on the
# window's thread (QProgressBar.setValue), and the value of information reports every whole
# percent: 100 repaints, ~60 ms of the window's thread per edit at 50 bids (issue 32).
STEP_PERCENT = 5


class TaskProgress:
    """Shows the runner's long tasks in the window's status bar; Cancel stops them."""

    def __init__(self, window: QMainWindow, tasks: BackgroundTasks) -> None:
        self.window, self.tasks = window, tasks
        self.bar = QProgressBar()
        self.bar.setRange(0, 100)
        self.bar.setMaximumWidth(180)
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.clicked.connect(self.cancel)
        for widget in (self.bar, self.cancel_button):
            widget.hide()
            window.statusBar().addPermanentWidget(widget)
        tasks.busy_changed.connect(lambda _name, _running: self._show_or_hide())
        tasks.progressed.connect(
            lambda _name, fraction, message: self._progressed(fraction, message)
        )

    def long_tasks(self) -> list[str]:
        return [name for name in self.tasks.running() if name not in QUIET_TASKS]

    def cancel(self) -> None:
        for name in self.long_tasks():
            self.tasks.cancel(name)
        self.window.statusBar().showMessage("Cancelled.", 5000)

    def _show_or_hide(self) -> None:
        long_work = bool(self.long_tasks())
        self.bar.setVisible(long_work)
        self.cancel_button.setVisible(long_work)
        if not long_work:
            self.bar.setValue(0)

    def _progressed(self, fraction: float, message: str) -> None:
        percent = int(fraction * 100)
        shown = f"{message} %p%" if message else "%p%"
        # A new step is shown as it comes; within a step only a new message or the end is.
        same_step = percent // STEP_PERCENT == self.bar.value() // STEP_PERCENT
        if same_step and shown == self.bar.format() and percent < 100:
            return
        self.bar.setValue(percent)
        self.bar.setFormat(shown)
