"""Issue 37, item 3: a serving bid's cost per million tokens counts the SLA credit the buyer can
expect to claim, worked by training's own function (costmodel/sla_credit.py), never the headline
and never in the monthly bill.

Worked by hand. 8 H100 GPUs (one node) at $3.00 an hour, fees none, net 30 (no cost of cash):
8 x 730 x 3.00 = $17,520 a month over 4 x 600 x 730 x 3,600 = 6,307.2 million output tokens. The
SLA: 99.9% uptime allows 0.1% x 730 = 0.73 h of downtime a node-month; a failed node is down 4 h,
so one failure breaches (k = floor(0.73 / 4) = 0). A node fails 0.5 per 1,000 GPU-days x 8 GPUs x
730 / 24 = 0.121667 times a month (Poisson), so P(breach) = 1 - e^-0.121667. Credit 10% of the
month, half of the faults counted, a 30-day claim window (90% of breaches claimed), capped at 10%:
claimable = 17,520 x P x 0.5 x 0.9 x 0.10; headline = 17,520 x P x 0.10."""

from __future__ import annotations

import math

import pytest
from serving_builders import serving_bid, serving_workload

from clusterbid.core.costmodel.serving_estimate import estimate_serving
from clusterbid.core.costmodel.sla_credit import sla_credits
from clusterbid.core.evaluation import Evaluation
from clusterbid.core.serving_json import serving_scorecard_to_json
from clusterbid.core.serving_report import format_serving_table
from clusterbid.core.serving_scoring import score_serving_evaluation
from clusterbid.gui.serving_details import bid_details_html

BILL = 8 * 730 * 3.00
MILLIONS_A_MONTH = 4 * 600 * 730 * 3600 / 1e6
BREACH = 1 - math.exp(-0.5 / 1000 / 24 * 8 * 730)
CLAIMABLE = BILL * BREACH * 0.5 * 0.9 * 0.10
HEADLINE = BILL * BREACH * 0.10
CLAIMS = {"covered_percent": 50, "automatic": False, "claim_window_days": 30, "cap_percent": 10}


def _bid(bid_id: str = "s1", credit: float | None = 10.0, **sections):
    return serving_bid(
        bid_id,
        reliability={"sla_credit_percent": credit},
        sla_claims=CLAIMS,
        **sections,
    )


def test_the_claimable_credit_lowers_the_cost_per_token_and_not_the_bill():
    e = estimate_serving(serving_workload(), [_bid()]).bids[0]
    assert e.gpus_billed == 8 and e.monthly_cost == pytest.approx(BILL)
    assert pytest.approx(90.31, abs=0.01) == CLAIMABLE  # 17,520 x 0.114547 x 0.045
    assert e.sla_credit_per_month == pytest.approx(CLAIMABLE, rel=1e-9)
    assert e.sla_headline_credit_per_month == pytest.approx(HEADLINE, rel=1e-9)
    assert e.cost_per_million_tokens == pytest.approx(
        (BILL - CLAIMABLE) / MILLIONS_A_MONTH, rel=1e-9
    )
    silent = estimate_serving(serving_workload(), [_bid(credit=None)]).bids[0]
    assert silent.sla_credit_per_month == 0.0  # no credit stated: ClusterBid counts none
    assert silent.cost_per_million_tokens == pytest.approx(BILL / MILLIONS_A_MONTH, rel=1e-9)


def test_serving_and_training_share_one_credit_function():
    """The serving share is training's sla_credits on the same node, uptime and claim terms."""

    class Node:
        failures_per_gpu_hour = 0.5 / 1000 / 24
        gpus_per_node = 8.0
        node_replacement_hours = 4.0
        pool_swap_hours = float("nan")
        sla_allowance_hours = 0.001 * 730
        sla_claimable_share = 0.5 * 0.9 * 0.10
        sla_headline_share = 0.10

    claimable, headline = sla_credits(Node, BILL)
    e = estimate_serving(serving_workload(), [_bid()]).bids[0]
    assert e.sla_credit_per_month == pytest.approx(float(claimable), rel=1e-12)
    assert e.sla_headline_credit_per_month == pytest.approx(float(headline), rel=1e-12)


def test_the_credit_is_shown_in_words_in_score_output_json_and_the_window():
    evaluation = Evaluation(
        title="credit",
        workload=serving_workload(),
        bids=[_bid(), serving_bid("rival", price="3.60")],
    )
    scorecard = score_serving_evaluation(evaluation)
    text = format_serving_table(scorecard)
    assert "SLA credit s1: less $90 a month of SLA credit you can expect to claim" in text
    assert "headline $201, not counted" in text
    figures = serving_scorecard_to_json(scorecard)["bids"]
    mine = next(b for b in figures if b["bid_id"] == "s1")["figures"]
    assert float(mine["sla_credit_claimable_per_month"]["amount"]) == pytest.approx(
        CLAIMABLE, abs=0.005
    )
    assert float(mine["monthly_cost"]["amount"]) == pytest.approx(BILL, abs=0.005)
    assert "SLA credit you can expect to claim" in bid_details_html(scorecard, "s1")
