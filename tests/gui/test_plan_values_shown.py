"""Issue 31, item 7: the value of the buyer's own plan figures is shown in the app beneath the
Details pane, beside the evidence worth asking for, computed on the worker with the bands (the
same sentences `clusterbid score` and the memo print; their figures are worked by hand in
tests/core/uncertainty/test_plan_value*.py)."""

from __future__ import annotations

import threading

import pytest
from tests.gui.waiting import HANG_GUARD_MS

from clusterbid.core.uncertainty import plan_value
from clusterbid.core.uncertainty.decision import decide
from clusterbid.gui.uncertainty_source import MONTE_CARLO_SAMPLES


@pytest.fixture
def computed_on(monkeypatch) -> list[threading.Thread]:
    """Records the thread each valuation ran on (patched before the window starts its analysis)."""
    threads: list[threading.Thread] = []
    original = plan_value.plan_value_lines

    def recording(scorecard):
        threads.append(threading.current_thread())
        return original(scorecard)

    monkeypatch.setattr(plan_value, "plan_value_lines", recording)
    return threads


def test_the_plan_figures_show_beneath_details_from_the_worker(computed_on, qtbot, window):
    panel = window.requests
    window.comparison.select_bid("northwind-ib")
    qtbot.waitUntil(
        lambda: panel.voi is not None and bool(panel.plan_values), timeout=HANG_GUARD_MS
    )
    assert computed_on and all(t is not threading.main_thread() for t in computed_on)
    evaluation = window.session.evaluation
    decided, _ = decide(evaluation, MONTE_CARLO_SAMPLES, evaluation.policy.random_seed)
    expected = computed_lines(decided)
    assert list(panel.plan_values) == expected
    text = panel.text.toPlainText()
    assert "Your own plan's figures: which matters most" in text
    assert "Further runs in reserved time: 1 now, moved across 0 to 2" in text
    assert all(line in text for line in expected)
    # Another bid selected: the buyer's figures are every bid's, and stay shown.
    window.comparison.select_bid("legacy-a100")
    assert "Further runs in reserved time: 1 now" in panel.text.toPlainText()


def computed_lines(scorecard) -> list[str]:
    """The sentences from the valuation itself (not through the patched function)."""
    names = {
        s.bid.id: f"{s.bid.quote.provider}, {s.bid.capacity.gpu_model}" for s in scorecard.scores
    }
    return plan_value.plan_value_sentences(
        plan_value.plan_assumption_values(scorecard), scorecard.evaluation.currency, names
    )


def test_details_say_what_the_payment_terms_cost_and_on_what_basis(qtbot, window):
    """Northwind states no payment terms: priced as due on invoice, 30 days before the buyer's
    default net 30, at the default 8% a year on its $3,195,648 commitment (512 GPUs x 3 x 730 h x
    $2.85): 3,195,648 x 0.08 x 30 / 365 = $21,012 in its net cost."""
    window.comparison.select_bid("northwind-ib")
    text = " ".join(window.details.toPlainText().split())
    assert (
        f"${512 * 3 * 730 * 2.85 * 0.08 * 30 / 365:,.2f} of it the cost of cash of the payment "
        "terms" in text
    )
    assert (
        "Payment terms priced at the cost of cash at 8% a year (ClusterBid default) for each day "
        "an invoice "
        "is paid before your usual 30 days (ClusterBid default)"
    ) in text
