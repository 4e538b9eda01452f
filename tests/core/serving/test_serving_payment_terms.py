"""Issue 31: a serving bid's payment terms priced as the cost of cash (costmodel/payment_terms.py),
in the cost per million tokens and its Monte Carlo, never in the monthly bill or the approval.

Worked by hand. The workload: 4 requests/s on average x 600 output tokens = 2,400 tokens/s; a
month is 730 h x 3,600 s, so 2,400 x 2,628,000 = 6,307.2 million output tokens a month. The bid:
8 H100 GPUs (one node) at $3.00 an hour, fees stated as none: 8 x 730 x 3.00 = $17,520 a month.
The buyer's defaults: cost of capital 8% a year against its own net 30; a day is 1/365 of a year."""

from __future__ import annotations

import pytest
from serving_builders import serving_bid, serving_workload

import clusterbid.core.uncertainty.serving_montecarlo as mc
from clusterbid.core.costmodel.serving_estimate import estimate_serving
from clusterbid.core.evaluation import Evaluation
from clusterbid.core.serving_json import serving_scorecard_to_json
from clusterbid.core.serving_scoring import score_serving_evaluation
from clusterbid.gui.serving_details import bid_details_html

MILLIONS_A_MONTH = 4 * 600 * 730 * 3600 / 1e6  # 6,307.2
BILL = 8 * 730 * 3.00  # $17,520


def _one(payment_days: int | None, **workload) -> object:
    terms = {"payment_terms_days": payment_days}
    return estimate_serving(serving_workload(**workload), [serving_bid(terms=terms)]).bids[0]


def test_the_cost_of_cash_is_in_the_cost_per_token_and_not_in_the_bill():
    """Net 30 against net 30: nothing; 17,520 / 6,307.2 = $2.7778 per million. Not stated (due on
    invoice): 17,520 x 0.08 x 30 / 365 = $115.20 a month, 115.20 / 6,307.2 = $0.018265 per million,
    $2.796043 in all. Net 60: the same $115.20 saved."""
    same, silent, later = _one(30), _one(None), _one(60)
    assert pytest.approx(6_307.2) == MILLIONS_A_MONTH
    for e in (same, silent, later):
        assert e.gpus_billed == 8
        assert e.monthly_cost == pytest.approx(BILL)  # the provider's bill, whatever the terms
    assert same.cash_cost_per_month == pytest.approx(0.0, abs=1e-9)
    assert same.cost_per_million_tokens == pytest.approx(2.777778, abs=1e-6)
    assert silent.cash_cost_per_month == pytest.approx(115.20, abs=0.005)
    assert silent.cash_cost_per_million_tokens == pytest.approx(0.018265, abs=1e-6)
    assert silent.cost_per_million_tokens == pytest.approx(2.796043, abs=1e-6)
    assert later.cash_cost_per_month == pytest.approx(-115.20, abs=0.005)
    assert later.cost_per_million_tokens == pytest.approx(2.759513, abs=1e-6)


def test_the_buyers_own_cost_of_capital_and_terms_set_the_price():
    """12% a year against the buyer's net 45, a bid due in 15 days: 17,520 x 0.12 x 30 / 365 =
    $172.80 a month; (17,520 + 172.80) / 6,307.2 = $2.805175 per million."""
    e = _one(15, cost_of_capital_percent_per_year=12, baseline_payment_days=45)
    assert e.monthly_cost == pytest.approx(BILL)
    assert e.cash_cost_per_month == pytest.approx(172.80, abs=0.005)
    assert e.cost_per_million_tokens == pytest.approx(2.805175, abs=1e-6)


def _bands(capital: float, payment_days: int | None, samples: int = 2000):
    workload = serving_workload(cost_of_capital_percent_per_year=capital)
    bids = [
        serving_bid("silent", terms={"payment_terms_days": payment_days}),
        serving_bid("rival", gpu="H200-SXM", price="3.60"),
    ]
    return mc.serving_uncertainty(estimate_serving(workload, bids), samples=samples, seed=7).bands[
        0
    ]


def test_the_draws_price_unstated_terms_between_due_on_invoice_and_net_30_and_leave_the_bill_alone():
    """Unstated terms are drawn triangular(0, 0, 30) days, mean 10: at 12% a year the cost per token
    is multiplied by 1 + 0.12 x (30 - d) / 365, between 1 and 1.009863, on average 1 + 0.12 x 20 /
    365 = 1.006575 (independent of the efficiency draws: its own stream). A bid stating net 30 in
    writing draws no cost of cash at all. The monthly bill and the approval's fleet never move."""
    free = _bands(0.0, None)
    silent = _bands(12.0, None)
    stated = _bands(12.0, 30)
    assert (
        silent.monthly_cost == free.monthly_cost
        and silent.fleet_at_percentile == free.fleet_at_percentile
    )
    assert stated.cost_per_million == pytest.approx(free.cost_per_million, rel=1e-12)
    for low, high in zip(free.cost_per_million, silent.cost_per_million, strict=True):
        assert low <= high <= low * (1 + 0.12 * 30 / 365) + 1e-12
    assert silent.mean_cost_per_million / free.mean_cost_per_million == pytest.approx(
        1 + 0.12 * 20 / 365, abs=2e-4
    )


def _demo_scorecard():
    from clusterbid.resources import resource_path

    evaluation = Evaluation.model_validate_json(
        resource_path("examples/demo-serving-evaluation.json").read_text(encoding="utf-8")
    )
    return score_serving_evaluation(evaluation)


def test_the_share_is_shown_in_words_where_the_cost_per_token_is_broken_down():
    scorecard = _demo_scorecard()
    first = scorecard.ranked[0]
    e = first.estimate
    assert e.bid.terms.payment_terms_days is None  # the demo states none
    # Its bill / (50 req/s x 600 tokens x 2,628,000 s = 78,840 million) x 0.08 x 30 / 365.
    assert e.cash_cost_per_million_tokens == pytest.approx(
        e.monthly_cost / 78_840 * 0.08 * 30 / 365, rel=1e-9
    )
    data = serving_scorecard_to_json(scorecard)["bids"][0]["figures"]
    assert data["cost_of_cash"]["in_monthly_cost"] is False
    assert float(data["cost_of_cash"]["per_month"]["amount"]) == pytest.approx(
        e.monthly_cost * 0.08 * 30 / 365, abs=0.005
    )
    words = data["cost_of_cash"]["words"]
    assert "payment terms not stated, priced as due on invoice" in words
    assert "8% a year (ClusterBid default)" in words and "your usual 30 days" in words
    html = bid_details_html(scorecard, e.bid.id)
    per_million = f"{e.cost_per_million_tokens:.2f}"
    # helio-h200's $116,508 a month x 0.08 x 30 / 365 / 78,840 million = $0.0097, $0.01 to the cent.
    assert e.monthly_cost == pytest.approx(116_508, abs=0.5)
    assert (
        f"Cost per million output tokens:</b> ${per_million} (the point estimate), of which "
        "$0.01 is the cost of cash" in html  # the bands are in: the mean ranks (issue 31)
    )
    assert "not stated, priced as due on invoice" in html
    assert "the cost of cash is not in it" in html
