"""Issue 41, item 2's second door: evaluator copies dropped on the Evaluation panel window are
merged as `clusterbid panel merge` merges them; an evaluator's own copy takes no drop."""

from __future__ import annotations

from PySide6.QtCore import QMimeData, QPoint, QPointF, Qt, QUrl
from PySide6.QtGui import QDragEnterEvent, QDropEvent
from tests.core.panel.builders import make_panel

from clusterbid.core.store import EvaluationDocument, audit
from clusterbid.gui.panel_dialog import PanelDialog
from clusterbid.gui.session import Session


def _files(paths) -> QMimeData:
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(p)) for p in paths])
    return mime


def _enter(dialog: PanelDialog, mime: QMimeData) -> bool:
    event = QDragEnterEvent(
        QPoint(5, 5),
        Qt.DropAction.CopyAction,
        mime,
        Qt.MouseButton.LeftButton,
        Qt.KeyboardModifier.NoModifier,
    )
    event.ignore()
    dialog.dragEnterEvent(event)
    return event.isAccepted()


def _drop(dialog: PanelDialog, mime: QMimeData) -> None:
    dialog.dropEvent(
        QDropEvent(
            QPointF(5, 5),
            Qt.DropAction.CopyAction,
            mime,
            Qt.MouseButton.LeftButton,
            Qt.KeyboardModifier.NoModifier,
        )
    )


def test_copies_dropped_on_the_lead_are_merged_once_and_a_copy_takes_no_drop(qtbot, tmp_path):
    lead, copies = make_panel(tmp_path)
    with EvaluationDocument.open(lead) as document:
        dialog = PanelDialog(Session(document))
        qtbot.addWidget(dialog)
        mime = _files(copies)
        assert _enter(dialog, mime)
        _drop(dialog, mime)
        shown = dialog.result.toPlainText()
        for name in ("Ana Ruiz", "Ben Okafor", "Chen Li"):
            assert f"{name}'s judgement merged" in shown, shown
        merges = [r for r in document.audit_rows() if r.action == audit.PANEL_MERGE]
        assert len(merges) == 3  # one audited row per evaluator's copy
        _drop(dialog, mime)  # the same copies again: nothing written
        assert dialog.result.toPlainText().count("already merged (nothing written)") == 3
        assert len([r for r in document.audit_rows() if r.action == audit.PANEL_MERGE]) == 3
    with EvaluationDocument.open(copies[0]) as copy:
        judging = PanelDialog(Session(copy))
        qtbot.addWidget(judging)
        assert not _enter(judging, _files(copies[1:]))  # an evaluator merges nothing
