"""Issue 37, item 1 in the app: growth typed in the serving window's Plan Inputs moves the fleets
month by month; the summary states the growth, Details shows the term's months, and a refused
profile names its fields in the form's words."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QDialog
from tests.gui.conftest import wait_for_serving_scores

from clusterbid.gui.plan_dialog import PlanInputsDialog

pytestmark = pytest.mark.timeout(120)


@pytest.fixture
def serving(serving_window):
    return serving_window  # tests/gui/conftest.py


def test_growth_typed_in_plan_inputs_shows_in_the_summary_and_details(qtbot, serving, monkeypatch):
    refused: list[str] = []

    def answer(dialog: PlanInputsDialog) -> int:
        dialog.editors["peak_hours_per_day"].setText("12")  # 12 x 120 / 24 = 60 > the average 50
        assert dialog._check() is None
        # said beneath the field it refuses (a tester's fault: it was at the foot of the dialog)
        refused.append(dialog.errors["peak_hours_per_day"].text())
        assert dialog.general_error.text() == ""
        dialog.editors["peak_hours_per_day"].setText("")
        dialog.editors["traffic_growth_percent_per_month"].setText("5")
        dialog.accept()
        return QDialog.DialogCode.Accepted

    monkeypatch.setattr(PlanInputsDialog, "exec", answer)
    serving.actions_.edit_plan.trigger()
    assert refused == [
        "'Hours a day at the peak' 12 at 120 requests/s already averages 60 requests/s over the "
        "day, more than 'Requests per second on average over a month' (50): shorten the peak or "
        "raise the average"
    ]
    assert serving.session.evaluation.workload.traffic_growth_percent_per_month == 5
    wait_for_serving_scores(qtbot, serving)
    assert "Growth: traffic grows 5% a month (stated by the buyer)" in serving.summary.text()
    # 1.05^11 = 1.71
    assert "month 12 runs at 1.71x month 1" in serving.summary.text()
    first = serving.scorecard.ranked[0].estimate
    details = serving.details.toPlainText()
    assert "Over the term: month 1 " in details and "over the 12 months" in details
    assert first.gpus_at_peak_by_month[-1] > first.gpus_at_peak_by_month[0]
