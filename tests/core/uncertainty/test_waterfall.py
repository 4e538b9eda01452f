"""The waterfall from the runner-up's net plan cost to the winner's (issue 34, item 2): its parts
against a hand computation, and their sum against the difference to the cent."""

from __future__ import annotations

import copy
import json

import pytest
from tests.conftest import EXAMPLES

from clusterbid.core.demo import demo_evaluation
from clusterbid.core.evaluation import Evaluation
from clusterbid.core.scoring import score_evaluation
from clusterbid.core.uncertainty.decision import decide
from clusterbid.core.uncertainty.waterfall import GROUPS, HAIRCUT, waterfall

# Seed 001's job: 256 GPUs for exactly 100 hours (test_contract_economics.py holds it to that).
JOB_GPUS, HOURS = 256, 100.0


def _two_bids() -> Evaluation:
    """The runner-up bills on demand at $7 with a $1,000 one-off fee; the winner is the same
    cluster booked as a 5-day block (120 h) at $5 with a $500 fee. Only price, term and fees differ."""
    data = json.loads((EXAMPLES / "seed-network-example.json").read_text())
    runner = data["bids"][0]
    runner["id"] = "on-demand-7"
    # Net 30, the buyer's own terms: no cost of cash, so only price, term and fees differ.
    runner["terms"].update(price_per_gpu_hour="7", one_off_fees="1000", payment_terms_days=30)
    winner = copy.deepcopy(runner)
    winner["id"] = "block-5"
    winner["terms"].update(
        price_per_gpu_hour="5",
        one_off_fees="500",
        billing="block",
        block_days=5,
        reserved_gpus=JOB_GPUS,
    )
    data["bids"] = [runner, winner]
    return Evaluation.model_validate(data)


def _cents(value: float) -> int:
    return round(value * 100)


def test_each_part_matches_the_hand_computation():
    scorecard = score_evaluation(_two_bids())
    assert [s.bid.id for s in scorecard.ranked] == ["block-5", "on-demand-7"]
    assert all(s.estimate.wall_hours == pytest.approx(HOURS, abs=1e-6) for s in scorecard.ranked)
    found = waterfall(scorecard)
    assert found is not None and (found.runner_up, found.winner) == ("on-demand-7", "block-5")
    # Start: 256 x 100 h x $7 + $1,000 = $180,200; end: 256 x 120 h x $5 + $500 = $154,100.
    assert found.start == 180_200.00 and found.end == 154_100.00
    parts = {p.name: p.amount for p in found.parts}
    assert parts == {
        "Price per GPU-hour": 256 * 100 * (5 - 7),  # on demand at $5: $129,000
        "Scaling and network": 0.0,  # the same cluster
        "Goodput and schedule": 0.0,
        "Term and idle value": 256 * 20 * 5,  # the block bills 20 hours the job does not use
        "Fees and exit": 500 - 1000,
        HAIRCUT: 0.0,  # no draws: ranked on the point estimate
    }
    assert sum(_cents(a) for a in parts.values()) == _cents(154_100 - 180_200)
    assert [p.name for p in found.parts] == [name for name, _ in GROUPS] + [HAIRCUT]


def test_the_demo_parts_sum_to_the_difference_to_the_cent_and_carry_bands():
    scorecard, drawn = decide(demo_evaluation())
    found = waterfall(scorecard, drawn)
    assert found is not None
    winner, runner = scorecard.ranked[0], scorecard.ranked[1]
    assert (found.winner, found.runner_up) == (winner.bid.id, runner.bid.id)
    # The ends are the costs the policy ranked on, to the cent, and the parts add up to their gap.
    assert found.start == round(scorecard.decision_cost(runner), 2)
    assert found.end == round(scorecard.decision_cost(winner), 2)
    assert sum(_cents(p.amount) for p in found.parts) == _cents(found.end) - _cents(found.start)
    # The five swaps telescope to the point estimates' gap; the haircut is the draws' shift.
    point_gap = winner.estimate.plan_cost - runner.estimate.plan_cost
    swaps = sum(p.amount for p in found.parts if p.name != HAIRCUT)
    assert swaps == pytest.approx(point_gap, abs=0.05)
    haircut = next(p.amount for p in found.parts if p.name == HAIRCUT)
    shift = (scorecard.decision_cost(winner) - winner.estimate.plan_cost) - (
        scorecard.decision_cost(runner) - runner.estimate.plan_cost
    )
    assert haircut == pytest.approx(shift, abs=0.05)
    assert found.samples == drawn.samples
    # Each swap's band holds its point figure unless the draws move it; the haircut's band is
    # centred on it (its mean over the draws is the expected basis's shift).
    for part in found.parts:
        assert part.p10 <= part.p90
    assert any(p.p90 - p.p10 > 1_000 for p in found.parts)  # the draws spread something


def test_no_waterfall_with_a_single_passing_bid():
    data = _two_bids().model_dump(mode="json")
    data["bids"] = data["bids"][:1]
    assert waterfall(score_evaluation(Evaluation.model_validate(data))) is None


def test_score_json_carries_the_waterfall(capsys):
    from clusterbid.cli import main

    assert (
        main(["score", str(EXAMPLES / "demo-evaluation.json"), "--json", "--samples", "2000"]) == 0
    )
    report = json.loads(capsys.readouterr().out)
    found = report["waterfall"]
    first, second = (b for b in report["bids"] if b["rank"] in (1, 2))
    if first["rank"] == 2:
        first, second = second, first
    assert (found["recommended"], found["runner_up"]) == (first["bid_id"], second["bid_id"])
    assert found["currency"] == report["currency"]
    # The ends are the decision costs the same report ranks on; the parts add up to the cent.
    assert _cents(found["recommended_net_cost"]) == _cents(float(first["decision_cost"]["amount"]))
    assert _cents(found["runner_up_net_cost"]) == _cents(float(second["decision_cost"]["amount"]))
    assert sum(_cents(p["amount"]) for p in found["parts"]) == (
        _cents(found["recommended_net_cost"]) - _cents(found["runner_up_net_cost"])
    )
    assert found["samples"] == report["monte_carlo"]["samples"]
    assert all(p["p10"] <= p["p90"] for p in found["parts"])
