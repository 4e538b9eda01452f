"""Input that behaves (issue 38 item 5): Enter on a destructive question keeps what the officer has,
and the Charts tab opens on the chart the ranking is decided on."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox

from clusterbid.gui import dialogs
from clusterbid.gui.charts.charts_panel import ChartsPanel


def test_enter_on_the_discard_question_answers_no(qtbot):
    box = dialogs.confirm_box(
        None, "Discard this bid?", "You have typed values into this bid. Discard?"
    )
    qtbot.addWidget(box)
    assert box.defaultButton() is box.button(QMessageBox.StandardButton.No)
    box.open()
    qtbot.waitExposed(box)
    qtbot.keyClick(box, Qt.Key.Key_Return)
    assert box.clickedButton() is box.button(QMessageBox.StandardButton.No)
    # Escape too: the question's way out keeps the bid.
    assert box.escapeButton() is box.button(QMessageBox.StandardButton.No)


def test_the_charts_tab_opens_on_the_net_plan_cost_the_ranking_uses(qtbot):
    panel = ChartsPanel()
    qtbot.addWidget(panel)
    assert panel.current_chart() == "cost_to_finish_bands"
    assert panel.chooser.currentText() == "Net plan cost (P10–P90)"
