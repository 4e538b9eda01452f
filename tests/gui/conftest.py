"""GUI fixtures: a main window on a fresh copy of the demo, with settings in a temporary folder."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QApplication
from tests.gui.on_a_desktop import needs_a_desktop
from tests.gui.waiting import HANG_GUARD_MS

from clusterbid.core.demo import demo_evaluation
from clusterbid.core.store import EvaluationDocument
from clusterbid.gui import dialogs
from clusterbid.gui.main_window import MainWindow
from clusterbid.gui.settings import AppSettings


@pytest.fixture
def app_settings(tmp_path) -> AppSettings:
    return AppSettings.in_folder(tmp_path / "profile")


@pytest.fixture(autouse=True)
def no_modal_confirm(monkeypatch) -> list:
    """No GUI test may open a real question box (it would wait for a click forever, at teardown
    too: closing a wizard with typed data asks). Records each question and answers yes."""
    asked: list = []
    monkeypatch.setattr(
        dialogs, "confirm", lambda _parent, title, text: asked.append((title, text)) or True
    )
    return asked


class DialogLog:
    """Replaces every modal dialog: records what would have been shown, answers from a queue."""

    def __init__(self) -> None:
        self.shown: list[tuple[str, str, str]] = []
        self.answers: list[str] = []
        self.asked: list[
            tuple
        ] = []  # each file dialog's arguments (title, filters, offered file ...)

    def problem(self, _parent, title, text, details="") -> None:
        self.shown.append(("problem", title, f"{text}\n{details}"))

    def info(self, _parent, title, text) -> None:
        self.shown.append(("info", title, text))

    def file(self, *args) -> str:
        self.asked.append(args[1:])
        return self.answers.pop(0) if self.answers else ""


@pytest.fixture
def dialog_log(monkeypatch) -> DialogLog:
    log = DialogLog()
    monkeypatch.setattr(dialogs, "show_problem", log.problem)
    monkeypatch.setattr(dialogs, "show_info", log.info)
    monkeypatch.setattr(dialogs, "open_file", log.file)
    monkeypatch.setattr(dialogs, "save_file", log.file)
    monkeypatch.setattr(dialogs, "confirm", lambda *_a: True)
    return log


@pytest.fixture
def window(qtbot, tmp_path, app_settings, dialog_log):
    document = EvaluationDocument.create(tmp_path / "demo.clusterbid", demo_evaluation())
    win = MainWindow(document, app_settings)
    qtbot.addWidget(win)
    win.show()
    qtbot.waitExposed(win)
    # Shortcuts (Ctrl+I, Ctrl+D, Ctrl+Plus ...) reach only the active window. Offscreen every
    # window is active; under a window manager the new window must be raised and given focus.
    win.raise_()
    win.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is win, timeout=HANG_GUARD_MS)
    yield win
    # No worker may outlive its test (napari's rule): wait, then close and reset the zoom.
    assert win.tasks.wait_for_done(10_000)
    win.zoom.set(1.0)
    if win.isVisible():
        win.close()


def wait_for_scoring(qtbot, win) -> None:
    """Until the table shows a scorecard of the session's current evaluation."""
    qtbot.waitUntil(
        lambda: (
            win.model.scorecard.evaluation == win.session.evaluation and not win.tasks.is_busy()
        ),
        timeout=HANG_GUARD_MS,
    )


@pytest.fixture
def serving_window(qtbot, tmp_path):
    """The serving window on a fresh copy of the serving demo, shown and scored."""
    from tests.conftest import EXAMPLES

    from clusterbid.core.documents import read_evaluation
    from clusterbid.gui.serving_window import ServingWindow

    document = EvaluationDocument.create(
        tmp_path / "serving.clusterbid", read_evaluation(EXAMPLES / "demo-serving-evaluation.json")
    )
    shown = ServingWindow(document)
    qtbot.addWidget(shown)
    shown.show()
    qtbot.waitExposed(shown)
    wait_for_serving_scores(qtbot, shown)
    yield shown
    shown.close()


def wait_for_serving_scores(qtbot, shown) -> None:
    """Until the serving window shows a scorecard of its session's current evaluation (it scores on
    the background runner)."""
    qtbot.waitUntil(
        lambda: (
            shown.scorecard is not None
            and shown.scorecard.evaluation == shown.session.evaluation
            and not shown.tasks.is_busy("score")
        ),
        timeout=HANG_GUARD_MS,
    )


def pytest_collection_modifyitems(config, items) -> None:
    """Mark the tests a real X server can answer differently (tests/gui/on_a_desktop.py): CI's
    second pass, on Xvfb with openbox, runs only those (`-m on_x`)."""
    for item in items:
        function = getattr(item, "function", None)
        if function is not None and needs_a_desktop(function):
            item.add_marker(pytest.mark.on_x)
