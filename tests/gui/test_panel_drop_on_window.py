"""Issue 41 item 2 ("drop the copies on the window"): evaluators' copies dropped on the lead's
main window open the Evaluation panel on its merge and are merged there, one audited row each;
a bid sheet dropped with them is still imported as before."""

from __future__ import annotations

from PySide6.QtCore import QMimeData, QPointF, Qt, QUrl
from PySide6.QtGui import QDropEvent
from tests.core.panel.builders import make_panel

from clusterbid.core.store import EvaluationDocument, audit
from clusterbid.gui.main_window import MainWindow


def _drop(window: MainWindow, paths) -> None:
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(p)) for p in paths])
    window.dropEvent(
        QDropEvent(
            QPointF(5, 5),
            Qt.DropAction.CopyAction,
            mime,
            Qt.MouseButton.LeftButton,
            Qt.KeyboardModifier.NoModifier,
        )
    )


def test_copies_dropped_on_the_main_window_are_merged_in_the_panel(qtbot, tmp_path, app_settings):
    lead, copies = make_panel(tmp_path)
    win = MainWindow(EvaluationDocument.open(lead), app_settings)
    qtbot.addWidget(win)
    _drop(win, copies)
    shown = win.info.panel_dialog.result.toPlainText()
    for name in ("Ana Ruiz", "Ben Okafor", "Chen Li"):
        assert f"{name}'s judgement merged" in shown, shown
    rows = win.session.document.audit_rows()
    assert sum(r.action == audit.PANEL_MERGE for r in rows) == 3  # one row per copy
    _drop(win, copies[:1])  # the same copy again: nothing written
    assert "already merged (nothing written)" in win.info.panel_dialog.result.toPlainText()
    assert sum(r.action == audit.PANEL_MERGE for r in win.session.document.audit_rows()) == 3
    assert win.tasks.wait_for_done(10_000)
    win.info.panel_dialog.tasks.wait_for_done(10_000)
    win.close()
