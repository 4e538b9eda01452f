"""Issue 31: payment terms priced, not only flagged, as the cost of cash of paying earlier or later
than the buyer's own terms (methodology section 9, costmodel/payment_terms.py).

Seed 001's job on demand: 256 GPUs for 100 hours at $7, a bill of $179,200 with fees stated as 0.
The buyer's defaults: cost of capital 8% a year, its own terms net 30. A day is 1/365 of a year."""

from __future__ import annotations

import numpy as np
import pytest
from tests.core.test_contract_economics import RESERVED, _estimate, _seed

from clusterbid.core.bid import Bid
from clusterbid.core.evaluation import Evaluation
from clusterbid.core.memo.bid_pages import bid_page
from clusterbid.core.scoring import score_evaluation
from clusterbid.core.uncertainty.term_ranges import draw, term_ranges

BILL = 256 * 100 * 7  # $179,200
ON_DEMAND = {"billing": "on-demand"}


def test_paying_on_the_buyers_own_terms_costs_nothing_sooner_costs_later_saves():
    """Net 30 against net 30: $0. Due on invoice: 179,200 x 0.08 x 30 / 365 = $1,178.30 more.
    Net 60: the same sum saved, $178,021.70."""
    same = _estimate(**ON_DEMAND, payment_terms_days=30)
    sooner = _estimate(**ON_DEMAND, payment_terms_days=0)
    later = _estimate(**ON_DEMAND, payment_terms_days=60)
    assert same.plan_cost == pytest.approx(BILL, abs=0.01) and same.cash_cost == pytest.approx(
        0, abs=1e-9
    )
    assert sooner.cash_cost == pytest.approx(1_178.30, abs=0.01)
    assert sooner.plan_cost == pytest.approx(180_378.30, abs=0.01)
    assert later.plan_cost == pytest.approx(178_021.70, abs=0.01)
    # What the signature approves does not move: only the net cost that ranks.
    assert sooner.commitment == later.commitment == pytest.approx(BILL, abs=0.01)


def test_unstated_terms_are_priced_as_due_on_invoice_never_better_than_net_30():
    blank = _estimate(**ON_DEMAND, payment_terms_days=None)
    typical = _estimate(**ON_DEMAND, payment_terms_days=30)
    assert blank.plan_cost == pytest.approx(180_378.30, abs=0.01)
    assert blank.plan_cost > typical.plan_cost  # leaving them out never pays


def test_the_buyers_own_cost_of_capital_and_terms_set_the_price():
    """12% a year against the buyer's net 45, a bid due in 15 days: 179,200 x 0.12 x 30 / 365
    = $1,767.45."""
    plan = {"cost_of_capital_percent_per_year": 12, "baseline_payment_days": 45}
    e = _estimate(plan, **ON_DEMAND, payment_terms_days=15)
    assert e.cash_cost == pytest.approx(1_767.45, abs=0.01)
    assert e.plan_cost == pytest.approx(BILL + 1_767.45, abs=0.01)


def test_a_reserved_term_pays_its_cost_of_cash_on_the_whole_commitment():
    """One month of 256 GPUs: 256 x 730 x 7 = $1,308,160 committed; due on invoice against net 30:
    1,308,160 x 0.08 x 30 / 365 = $8,601.60 on top of the net cost."""
    blank = _estimate(**RESERVED, payment_terms_days=None)
    stated = _estimate(**RESERVED, payment_terms_days=30)
    assert blank.commitment == stated.commitment == pytest.approx(1_308_160, abs=0.01)
    assert blank.cash_cost == pytest.approx(8_601.60, abs=0.01)
    assert blank.plan_cost - stated.plan_cost == pytest.approx(8_601.60, abs=0.01)
    assert blank.cost_if_plan_fails - stated.cost_if_plan_fails == pytest.approx(8_601.60, abs=0.01)


def test_the_monte_carlo_draws_unstated_terms_between_due_on_invoice_and_net_30():
    """Triangular from 0 to 30 days, most likely 0 (the cautious end the point keeps): mean
    (0 + 0 + 30) / 3 = 10 days, never above 30; stated terms are not drawn."""
    blank = Bid.model_validate(_seed(**ON_DEMAND, payment_terms_days=None)["bids"][0])
    stated = Bid.model_validate(_seed(**ON_DEMAND, payment_terms_days=45)["bids"][0])
    (term,) = [t for t in term_ranges(blank) if t.path == "terms.payment_terms_days"]
    assert (term.low, term.likely, term.high) == (0.0, 0.0, 30.0)
    days = draw(np.random.default_rng(7), term, 200_000)
    assert days.min() >= 0.0 and days.max() <= 30.0
    assert days.mean() == pytest.approx(
        10.0, abs=0.1
    )  # standard error 7.07 / sqrt(200,000) = 0.016
    assert not [t for t in term_ranges(stated) if t.path == "terms.payment_terms_days"]


def test_the_memo_fee_line_says_what_the_terms_cost():
    data = _seed(**ON_DEMAND, payment_terms_days=None)
    scorecard = score_evaluation(Evaluation.model_validate(data))
    page = bid_page(scorecard.scores[0], scorecard, None)
    fees = dict(page.offer_rows)["Fees"]
    assert "payment terms not stated (priced as due on invoice: $1,178 cost of cash)" in fees
