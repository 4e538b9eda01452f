"""Issue 31: the buyer's plan inputs (cost of capital, usual payment terms, deadline, idle time,
cost of a day late, commitment ceiling) are edited in Edit > Plan Inputs, not only in JSON. Each
field the rules refuse says why beneath it, in words; OK records one audited edit (one undo step),
through the same operation `clusterbid plan --set` runs."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QDialog, QDialogButtonBox
from tests.gui.conftest import wait_for_scoring, wait_for_serving_scores
from tests.gui.test_no_codes_where_officers_read import _codes, _widget_texts

from clusterbid.core.store import EvaluationDocument, audit
from clusterbid.gui.plan_dialog import PlanInputsDialog

OK = QDialogButtonBox.StandardButton.Ok


def _visible_errors(dialog: PlanInputsDialog) -> dict[str, str]:
    return {name: line.text() for name, line in dialog.errors.items() if line.isVisibleTo(dialog)}


def test_each_refused_field_says_why_beneath_it_and_ok_waits(qtbot, window):
    dialog = PlanInputsDialog(window.session.evaluation, window)
    qtbot.addWidget(dialog)
    assert dialog.buttons.button(OK).isEnabled() and not _visible_errors(dialog)
    assert not _codes(_widget_texts(dialog))  # words, not field names
    dialog.editors["baseline_payment_days"].setText("400")
    dialog.editors["cost_of_capital_percent_per_year"].setText("eight")
    errors = _visible_errors(dialog)
    assert set(errors) == {"baseline_payment_days", "cost_of_capital_percent_per_year"}
    assert (
        "365" in errors["baseline_payment_days"]
        and "number" in errors["cost_of_capital_percent_per_year"]
    )
    assert not dialog.buttons.button(OK).isEnabled()
    # A rule tying two fields together names both, in the form's words.
    dialog.editors["baseline_payment_days"].setText("45")
    dialog.editors["cost_of_capital_percent_per_year"].setText("12")
    combo = dialog.editors["idle_use"]
    combo.setCurrentIndex(combo.findData("other-work"))
    assert dialog.general_error.isVisibleTo(dialog)
    assert dialog.general_error.text() == (
        "'What idle reserved time does' 'other work, worth a stated amount' "
        "needs 'Worth of an idle GPU-hour' (what an idle GPU-hour is worth)"
    )
    assert not dialog.buttons.button(OK).isEnabled()
    combo.setCurrentIndex(combo.findData("more-runs"))
    assert dialog.buttons.button(OK).isEnabled() and not dialog.general_error.isVisibleTo(dialog)


def test_ok_records_one_audited_edit_that_undo_takes_back(qtbot, window, monkeypatch):
    wait_for_scoring(qtbot, window)
    before = window.session.evaluation
    rows = len(window.session.document.audit_rows())

    def answer(dialog: PlanInputsDialog) -> int:
        dialog.editors["cost_of_capital_percent_per_year"].setText("12")
        dialog.editors["baseline_payment_days"].setText("45")
        dialog.editors["commitment_ceiling"].setText("5,000,000")
        dialog.accept()
        return QDialog.DialogCode.Accepted

    monkeypatch.setattr(PlanInputsDialog, "exec", answer)
    window.actions_.edit_plan.trigger()
    plan = window.session.evaluation.workload.plan
    assert (plan.cost_of_capital_percent_per_year, plan.baseline_payment_days) == (12.0, 45)
    assert plan.commitment_ceiling == 5_000_000
    assert plan.deadline == before.workload.plan.deadline  # the rest kept as it was
    trail = window.session.document.audit_rows()
    assert len(trail) == rows + 1 and trail[-1].action == audit.SET_WORKLOAD
    with EvaluationDocument.open(window.session.document.path, read_only=True) as reopened:
        assert reopened.evaluation.workload.plan == plan  # in the file, not only in the window
    window.session.undo_stack.undo()
    assert window.session.evaluation == before
    wait_for_scoring(qtbot, window)


@pytest.fixture
def serving(serving_window):
    return serving_window  # tests/gui/conftest.py


def test_the_serving_window_edits_the_two_inputs_that_price_payment_terms(
    qtbot, serving, monkeypatch
):
    """At 0% a year no payment terms cost anything: the cost per million tokens falls back to the
    monthly bill over the tokens, which the cost of capital never moves."""
    first = serving.scorecard.ranked[0].estimate
    assert first.cash_cost_per_month > 0  # the demo states no terms: due on invoice, 8% a year

    def answer(dialog: PlanInputsDialog) -> int:
        assert set(dialog.editors) == {
            "cost_of_capital_percent_per_year",
            "baseline_payment_days",
            # issue 37: the traffic, its daily profile and its growth over the term
            "peak_requests_per_s",
            "average_requests_per_s",
            "peak_hours_per_day",
            "hourly_share_of_peak",
            "traffic_growth_percent_per_month",
            "growth_spread_percent_per_month",
            "serving_engine",  # issue 37: the engine the service will run
        }
        dialog.editors["cost_of_capital_percent_per_year"].setText("0")
        dialog.accept()
        return QDialog.DialogCode.Accepted

    monkeypatch.setattr(PlanInputsDialog, "exec", answer)
    serving.actions_.edit_plan.trigger()
    assert serving.session.evaluation.workload.cost_of_capital_percent_per_year == 0
    wait_for_serving_scores(qtbot, serving)
    after = next(s.estimate for s in serving.scorecard.scores if s.bid.id == first.bid.id)
    assert after.monthly_cost == first.monthly_cost and after.cash_cost_per_month == 0
    # 50 requests/s x 600 tokens x 730 h x 3,600 s = 78,840 million output tokens a month; the
    # SLA credit the buyer can expect to claim comes off (issue 37), the cost of cash is gone.
    assert after.sla_credit_per_month == first.sla_credit_per_month > 0
    assert after.cost_per_million_tokens == pytest.approx(
        (first.monthly_cost - first.sla_credit_per_month) / 78_840, rel=1e-12
    )


def test_every_wrapped_label_shows_all_its_lines(qtbot):
    """Found trying the serving Plan Inputs at 1600 x 1000: the form sized each row from its
    label's one-line hint, so "Requests per second at the daily peak" (three lines at the width
    it got) and "Traffic growth" (two) were clipped to one line."""
    from pathlib import Path

    from PySide6.QtWidgets import QLabel

    from clusterbid.core.documents import read_evaluation

    examples = Path(__file__).resolve().parents[2] / "resources" / "examples"
    for name in ("demo-serving-evaluation.json", "demo-evaluation.json"):
        dialog = PlanInputsDialog(read_evaluation(examples / name))
        qtbot.addWidget(dialog)
        dialog.show()
        qtbot.waitExposed(dialog)
        wrapped = [label for label in dialog.findChildren(QLabel) if label.wordWrap()]
        assert len(wrapped) > 5
        clipped = [
            label.text()
            for label in wrapped
            if label.isVisible() and label.height() < label.heightForWidth(label.width())
        ]
        assert clipped == [], name
        dialog.close()
