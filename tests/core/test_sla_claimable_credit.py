"""Issue 39, item 4: the SLA credit a buyer can expect to collect, worked by hand for one bid.

The conftest bid on demand: 512 H100s, 8 per node. Here its SLA is 99.5% a month, so a node may be
down (1 - 0.995) x 730 = 3.65 h a month; it fails 2.0 times per 1,000 GPU-days, so a node fails
lambda = 2.0 / 1,000 / 24 x 8 x 730 = 0.48667 times a month (Poisson)."""

from __future__ import annotations

import math

import pytest
from tests.conftest import bid_dict, evaluation_dict

from clusterbid.core.contract_summary import contract_lines
from clusterbid.core.evaluation import Evaluation
from clusterbid.core.money import format_money
from clusterbid.core.scoring import score_evaluation

LAM = 2.0 / 1000 / 24 * 8 * 730


def _estimate(credit: float, replacement_hours: float, **claims):
    bid = bid_dict(
        "b1",
        reliability={
            "uptime_sla_percent": 99.5,
            "failures_per_1000_gpu_days": 2.0,
            "sla_credit_percent": credit,
            "node_replacement_hours": replacement_hours,
        },
        sla_claims=claims,
    )
    return score_evaluation(Evaluation.model_validate(evaluation_dict([bid]))).scores[0].estimate


def test_expected_claimable_credit_of_one_bid_by_hand():
    """A 4-hour replacement: one failure breaches the month (4 > 3.65), P = 1 - e^-lambda = 0.3853.
    A stated 25% credit, cap not stated (10%), downtime definition not stated (50% of failures
    count), a 20-day claim window (filed for 0.9 x 20/30 = 60% of breaches): the buyer can expect
    0.3853 x 0.5 x 0.6 x 10% = 1.156% of the bill back, where the headline 25% would promise 9.63%."""
    p = 1 - math.exp(-LAM)
    assert p == pytest.approx(0.38533, abs=1e-5)
    e = _estimate(25, 4, claim_window_days=20)
    bill = e.commitment  # on demand: the job's own GPU-hours, fees stated as 0
    assert e.sla_credit == pytest.approx(bill * p * 0.5 * 0.6 * 0.10, rel=1e-9)
    assert e.sla_headline_credit == pytest.approx(bill * p * 0.25, rel=1e-9)
    assert e.sla_credit / bill == pytest.approx(0.011560, abs=1e-6)
    # It replaces the headline in the net cost: the same bid without a credit costs that much more.
    none = _estimate(0, 4, claim_window_days=20)
    assert none.plan_cost - e.plan_cost == pytest.approx(e.sla_credit, rel=1e-9)
    assert none.sla_credit == 0 and none.sla_headline_credit == 0


def test_an_automatic_uncapped_sla_that_counts_every_failure_pays_its_headline():
    """A 2-hour swap: the month absorbs one failure (2 <= 3.65) and breaches on the second,
    P = 1 - e^-lambda (1 + lambda) = 0.0862; automatic, cap 50%, every failure counted: the whole
    25% is collected, so claimable = headline."""
    p = 1 - math.exp(-LAM) * (1 + LAM)
    assert p == pytest.approx(0.08618, abs=1e-5)
    e = _estimate(25, 2, automatic=True, cap_percent=50, covered_percent=100)
    assert e.sla_credit == pytest.approx(e.commitment * p * 0.25, rel=1e-9)
    assert e.sla_credit == pytest.approx(e.sla_headline_credit, rel=1e-12)


def test_the_net_cost_line_shows_claimable_against_headline_and_says_when_terms_are_defaults():
    """The app's Details and the memo's bid pages print the net cost's line (contract_summary.py)."""
    e = _estimate(25, 4, claim_window_days=20)
    line = dict(contract_lines(e, "USD"))["Net cost of the plan"]
    assert f"less {format_money(e.sla_credit, 'USD')} SLA credit claimable" in line
    assert (
        f"(headline {format_money(e.sla_headline_credit, 'USD')}, claim terms not stated)" in line
    )
    stated = _estimate(
        25, 4, claim_window_days=20, automatic=False, cap_percent=10, covered_percent=50
    )
    assert "not stated" not in dict(contract_lines(stated, "USD"))["Net cost of the plan"]
    assert "SLA credit" not in dict(contract_lines(_estimate(0, 4), "USD"))["Net cost of the plan"]
