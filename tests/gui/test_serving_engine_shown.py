"""Issue 37, target (c): the serving engine in the app. Edit > Plan Inputs offers it as a choice in
the officer's words; the Details pane says which engine, whose statement it is and what it does
("not stated: band widened by the spread across engines" for the default, never a provider's or
the buyer's statement), and a stated engine reads as the buyer's."""

from __future__ import annotations

from PySide6.QtWidgets import QComboBox, QDialog
from tests.gui.conftest import wait_for_serving_scores

from clusterbid.core.engine_names import ENGINE_WORDS
from clusterbid.gui.plan_dialog import PlanInputsDialog


def _details(window) -> str:
    return window.details.toPlainText()


def test_the_engine_is_offered_in_words_and_shown_with_its_source(
    qtbot, serving_window, monkeypatch
):
    window = serving_window
    window.table.selectRow(0)
    shown = _details(window)
    assert "Serving engine: Not stated (ClusterBid's default)" in shown
    if window.scorecard.ranked[0].estimate.throughput_evidence is None:
        assert "not stated: band widened by the spread across engines" in shown
    assert "buyer's statement" not in shown and "provider" not in shown.split("Serving engine")[1]

    def answer(dialog: PlanInputsDialog) -> int:
        combo = dialog.editors["serving_engine"]
        assert isinstance(combo, QComboBox)
        assert [combo.itemText(i) for i in range(combo.count())] == list(ENGINE_WORDS.values())
        assert combo.currentData() == "not-stated"
        combo.setCurrentIndex(combo.findData("vllm-0.6"))
        dialog.accept()
        return QDialog.DialogCode.Accepted

    monkeypatch.setattr(PlanInputsDialog, "exec", answer)
    window.actions_.edit_plan.trigger()
    assert window.session.evaluation.workload.serving_engine == "vllm-0.6"
    wait_for_serving_scores(qtbot, window)
    silent = next(s for s in window.scorecard.ranked if s.estimate.throughput_evidence is None)
    window.table.selectRow(window.table.bid_ids.index(silent.bid.id))
    shown = _details(window)
    assert "Serving engine: vLLM 0.6, default deployment (the buyer's statement)" in shown
    assert "Lambda's vLLM 0.6.0 runs" in shown
