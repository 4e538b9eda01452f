"""The main window on the demo: ranked rows first, excluded bids marked, details follow the selection."""

from __future__ import annotations

from PySide6.QtCore import Qt

from clusterbid.core.demo import demo_evaluation
from clusterbid.gui.main_window import MainWindow


def test_main_window_shows_the_demo_ranking(qtbot):
    window = MainWindow(demo_evaluation())
    qtbot.addWidget(window)
    window.show()
    model = window._table.model()
    assert model.rowCount() == len(demo_evaluation().bids)
    assert model.index(0, 0).data() == "1"
    assert model.index(0, 1).data() == "Northwind AI Cloud"
    last = model.index(model.rowCount() - 1, 0)
    assert last.data() == "—" and model.data(last, Qt.ItemDataRole.ToolTipRole)
    assert "Northwind AI Cloud" in window._details.toPlainText()
    window._table.selectRow(model.rowCount() - 1)
    assert "Excluded" in window._details.toPlainText()
