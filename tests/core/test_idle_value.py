"""Issue 31, item 4: idle value that cannot be circular. Idle reserved hours are worth at most the
buyer's alternative price, and only for the further runs the buyer states; the commitment and what
it risks are shown beside the net cost; an optional ceiling is a gate. Seed 001's job: 256 GPUs for
exactly 100 hours at $7 per GPU-hour (test_contract_economics.py)."""

from __future__ import annotations

import json
import math

import pytest
from tests.core.test_contract_economics import _seed

from clusterbid.core.evaluation import Evaluation
from clusterbid.core.report import scorecard_to_json
from clusterbid.core.scoring import score_evaluation

RUNS = 2  # the buyer states two further runs of the same kind


def _terms(bid_id: str, months: int) -> dict:
    return {
        "billing": "reserved",
        "term_months": months,
        "reserved_gpus": 256,
        "price_escalation_percent_per_year": 0,
    }


def _two_terms(plan: dict) -> Evaluation:
    data = _seed()
    short = data["bids"][0]
    long = json.loads(json.dumps(short))
    short["id"], long["id"] = "three-months", "twenty-four-months"
    long["quote"]["provider"] = "Long Term Cloud"
    short["terms"].update(_terms("three-months", 3))
    long["terms"].update(_terms("twenty-four-months", 24))
    data["bids"] = [long, short]
    data["workload"]["plan"] = plan
    return Evaluation.model_validate(data)


def test_a_24_month_term_no_longer_ranks_as_the_cost_of_one_job():
    """3 months: 256 x 2,190 x 7 = $3,924,480; 24 months: 256 x 17,520 x 7 = $31,395,840. The job
    and two further runs (25,600 GPU-hours each; 21.9 and 175.2 would fit) share each commitment:
    the job's share is a third, $1,308,160 and $10,465,280. Before issue 31 every idle hour counted,
    so both netted the cost of one job, $179,200, and tied."""
    card = score_evaluation(_two_terms({"idle_use": "more-runs", "further_runs": RUNS}))
    e = {s.bid.id: s.estimate for s in card.scores}
    assert e["three-months"].commitment == pytest.approx(256 * 2190 * 7, abs=0.01)
    assert e["twenty-four-months"].commitment == pytest.approx(256 * 17_520 * 7, abs=0.01)
    assert (
        e["three-months"].plan_cost
        == pytest.approx(3_924_480 / 3, abs=0.01)
        == pytest.approx(1_308_160)
    )
    assert e["twenty-four-months"].plan_cost == pytest.approx(31_395_840 / 3, abs=0.01)
    assert e["three-months"].idle_value == pytest.approx(3_924_480 * 2 / 3, abs=0.01)
    assert [s.bid.id for s in card.ranked] == ["three-months", "twenty-four-months"]
    # What the commitment risks, beside the net cost: 24 months: 17,420 of 17,520 h idle (99.4%).
    report = {b["bid_id"]: b for b in scorecard_to_json(card)["bids"]}
    risk = report["twenty-four-months"]["figures"]["commitment_at_risk"]
    assert risk["idle_share"] == pytest.approx(round(17_420 / 17_520, 4))
    assert risk["net_cost_if_the_plan_fails"]["amount"] == "31395840.00"


def test_idle_hours_are_worth_at_most_the_buyers_alternative_price():
    """At $3 elsewhere the two further runs are worth at most 2 x 25,600 x $3 = $153,600 (less than
    their $2,616,320 share of the term): the job nets $3,924,480 - $153,600 = $3,770,880."""
    card = score_evaluation(
        _two_terms(
            {"idle_use": "more-runs", "further_runs": RUNS, "alternative_price_per_gpu_hour": "3"}
        )
    )
    e = {s.bid.id: s.estimate for s in card.scores}
    assert e["three-months"].idle_value == pytest.approx(153_600, abs=0.01)
    assert e["three-months"].plan_cost == pytest.approx(3_770_880, abs=0.01)


def test_a_falling_market_price_is_averaged_over_the_idle_span():
    """$3 falling 50% a year, averaged over the 3-month term's idle span, hours 100 to 2,190:
    3 x (e^(-k 100) - e^(-k 2,190)) / (k x 2,090) with k = ln 2 / 8,760 per hour."""
    card = score_evaluation(
        _two_terms(
            {
                "idle_use": "more-runs",
                "further_runs": RUNS,
                "alternative_price_per_gpu_hour": "3",
                "alternative_price_decline_percent_per_year": 50,
            }
        )
    )
    k = math.log(2) / 8760
    mean = 3 * (math.exp(-k * 100) - math.exp(-k * 2190)) / (k * 2090)
    e = {s.bid.id: s.estimate for s in card.scores}
    assert e["three-months"].idle_value == pytest.approx(RUNS * 25_600 * mean, rel=1e-9)


def test_a_commitment_ceiling_is_a_gate():
    card = score_evaluation(
        _two_terms({"idle_use": "more-runs", "further_runs": RUNS, "commitment_ceiling": "5000000"})
    )
    gated = {s.bid.id: [g.code for g in s.estimate.gates] for s in card.scores if s.rank is None}
    assert gated == {"twenty-four-months": ["commitment_above_ceiling"]}
    assert [s.bid.id for s in card.ranked] == ["three-months"]
