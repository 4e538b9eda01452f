"""What decides never leaves the screen: at 1366x768 and 1920x1080, at 100, 130, 150 and 175% zoom,
the comparison's rank, score, net cost, band, Cheapest and gates columns are shown whole inside the
table, which never scrolls sideways, and the score matrix keeps its weighted score in view (issue 38
item 4). The provider name gives way (elided, whole in its tooltip), then the outline dock."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from tests.gui.conftest import wait_for_scoring

from clusterbid.gui.comparison.scorecard_table_model import BAND, COST, PROVIDER, RANK, SCORE, WIN

DECIDING = (RANK, SCORE, COST, BAND, WIN)
SORT_ARROW = 16  # px the header keeps for the sort indicator beside its text
SCREENS = ((1366, 740), (1920, 1050))  # the screen less the panel a desktop keeps


def _inside(header, column: int, width: int) -> bool:
    left = header.sectionViewportPosition(column)
    return left >= 0 and left + header.sectionSize(column) <= width


@pytest.mark.parametrize("screen", SCREENS, ids=lambda s: f"{s[0]}x{s[1]}")
def test_what_decides_is_whole_and_in_view_at_every_zoom(qtbot, window, screen):
    window.resize(*screen)
    wait_for_scoring(qtbot, window)
    qtbot.waitUntil(lambda: window.model.index(0, BAND).data() != "—")
    assert window.tasks.wait_for_done(10_000)
    view, matrix = window.comparison, window.score_matrix
    for zoom in (1.0, 1.3, 1.5, 1.75):
        window.zoom_layout.set(zoom)
        qtbot.wait(50)
        header = view.horizontalHeader()
        width = view.viewport().width()
        where = f"{screen} at {zoom:.0%}"
        assert view.horizontalScrollBar().maximum() == 0, where
        for column in DECIDING:
            text = str(window.model.headerData(column, Qt.Orientation.Horizontal))
            assert not header.isSectionHidden(column), (where, text)
            assert _inside(header, column, width), (where, text)
            assert header.fontMetrics().horizontalAdvance(text) + SORT_ARROW <= header.sectionSize(
                column
            ), (where, text)
        last = header.count() - 1
        assert _inside(header, last, width), where
        # The gates column keeps room for its verdict ("passed, 1 note"; the reason is its tooltip).
        assert header.sectionSize(last) >= view.fontMetrics().horizontalAdvance("passed, 1 note"), (
            where
        )
        assert (
            window.model.index(0, PROVIDER).data(Qt.ItemDataRole.ToolTipRole)
            == "Northwind AI Cloud"
        )
        score_column = matrix.columnCount() - 1
        assert matrix.horizontalScrollBar().maximum() == 0, where
        assert _inside(matrix.horizontalHeader(), score_column, matrix.viewport().width()), where
    window.zoom_layout.set(1.0)


def test_the_workload_pane_shows_each_label_with_its_value_at_its_default_width(qtbot, window):
    window.resize(1366, 740)
    window.show_workload_editor()
    qtbot.wait(50)
    editor = window.workload_editor
    scroll = window.workload_dock.widget()
    assert (
        scroll.horizontalScrollBar().maximum() == 0
    )  # was: the values beyond the pane's right edge
    width = scroll.viewport().width()
    for name, field in editor.editors.items():
        left = field.mapTo(editor, field.rect().topLeft()).x()
        assert left >= 0 and left + field.width() <= width, name
        assert field.width() >= field.minimumSizeHint().width(), name
    labels = [
        w for w in editor.findChildren(type(editor.derived)) if w.buddy() in editor.editors.values()
    ]
    assert len(labels) == len(editor.editors)
    for label in labels:
        text_width = label.mapTo(editor, label.rect().topRight()).x()
        assert text_width <= width, label.text()
        assert label.height() >= label.heightForWidth(label.width()) or not label.wordWrap(), (
            label.text()
        )
