"""Issue 37, target (c): the serving engine in the app. Edit > Plan Inputs offers it as a choice in
the officer's words; the Details pane says which engine, whose statement it is and what it does
("not stated: band widened by the spread across engines" for the default, never a provider's or
the buyer's statement), and a stated engine reads as the buyer's."""

from __future__ import annotations

from PySide6.QtWidgets import QComboBox, QDialog
from tests.gui.conftest import wait_for_serving_scores

from clusterbid.core.engine_names import ENGINE_WORDS
from clusterbid.gui.plan_dialog import PlanInputsDialog


def _details(window, benchmarked: bool) -> str:
    """The Details pane of the first ranked bid with (or without) serving evidence."""
    score = next(
        s
        for s in window.scorecard.ranked
        if (s.estimate.throughput_evidence is not None) == benchmarked
    )
    window.table.selectRow(window.table.bid_ids.index(score.bid.id))
    shown = window.details.toPlainText()
    return shown[shown.index("Serving engine:") :].split("\n")[0]


def _choose(monkeypatch, qtbot, window, engine: str) -> None:
    def answer(dialog: PlanInputsDialog) -> int:
        combo = dialog.editors["serving_engine"]
        assert isinstance(combo, QComboBox)
        assert [combo.itemText(i) for i in range(combo.count())] == list(ENGINE_WORDS.values())
        combo.setCurrentIndex(combo.findData(engine))
        dialog.accept()
        return QDialog.DialogCode.Accepted

    monkeypatch.setattr(PlanInputsDialog, "exec", answer)
    window.actions_.edit_plan.trigger()
    assert window.session.evaluation.workload.serving_engine == engine
    wait_for_serving_scores(qtbot, window)


def test_the_engine_is_offered_in_words_and_shown_with_its_source(
    qtbot, serving_window, monkeypatch
):
    window = serving_window  # the demo states TensorRT-LLM, the engine its efficiencies describe
    assert _details(window, False).startswith(
        "Serving engine: TensorRT-LLM, tuned (the buyer's statement); its published figures"
    )
    assert "NVIDIA TensorRT-LLM perf-overview" in _details(window, False)
    assert "set by its own serving benchmark instead" in _details(window, True)
    _choose(monkeypatch, qtbot, window, "not-stated")
    line = _details(window, False)
    assert line.startswith("Serving engine: Not stated (ClusterBid's default)")
    assert "not stated: band widened by the spread across engines" in line
    assert "buyer's statement" not in line and "provider" not in line
    _choose(monkeypatch, qtbot, window, "vllm-0.6")
    line = _details(window, False)
    assert line.startswith("Serving engine: vLLM 0.6, default deployment (the buyer's statement)")
    assert "Lambda's vLLM 0.6.0 runs" in line
