"""The memo's inputs document: canonical, hashed, and re-scored to the same printed figures."""

from __future__ import annotations

import hashlib
import json

import pytest

from clusterbid import __version__
from clusterbid.core.demo import demo_evaluation
from clusterbid.core.errors import InputError
from clusterbid.core.memo.inputs import (
    INPUTS_ATTACHMENT_NAME,
    Approver,
    RecommendationOverride,
    build_memo_inputs,
    parse_memo_inputs,
    printed_results,
    rescore_memo_inputs,
)
from clusterbid.core.scoring import score_evaluation

APPROVERS = [Approver("Ada Lovelace", "CFO"), ("Grace Hopper", "Head of ML platform")]


@pytest.fixture(scope="module")
def scorecard():
    return score_evaluation(demo_evaluation())


def test_canonical_bytes_and_sha256_follow_the_contract(scorecard):
    inputs = build_memo_inputs(scorecard, approvers=APPROVERS, notes="Board meeting 12 May")
    expected = json.dumps(
        inputs.data, sort_keys=True, separators=(",", ":"), ensure_ascii=False
    ).encode("utf-8")
    assert inputs.canonical_bytes() == expected
    assert inputs.sha256 == hashlib.sha256(expected).hexdigest()
    assert INPUTS_ATTACHMENT_NAME == "clusterbid-inputs.json"
    data = inputs.data
    assert data["format"] == "clusterbid-memo-inputs/1"
    assert data["software_version"] == __version__
    assert data["random_seed"] == 20261122  # the demo's policy.random_seed
    assert data["approvers"] == [
        {"name": "Ada Lovelace", "role": "CFO"},
        {"name": "Grace Hopper", "role": "Head of ML platform"},
    ]
    # The demo's bids use these catalog entries (resources/examples/demo-evaluation.json).
    used_gpus = {b["capacity"]["gpu_model"] for b in data["evaluation"]["bids"]}
    assert set(data["catalog"]["gpus"]) == used_gpus
    assert {b["fabric"]["technology"] for b in data["evaluation"]["bids"]} == set(
        data["catalog"]["fabrics"]
    )


def test_round_trip_through_bytes_rescores_to_the_printed_results(scorecard):
    inputs = build_memo_inputs(scorecard, approvers=APPROVERS)
    data = parse_memo_inputs(inputs.canonical_bytes())
    assert data == inputs.data
    assert rescore_memo_inputs(data) == data["results"]


def test_printed_results_are_strings_as_printed(scorecard):
    results = printed_results(scorecard)
    assert len(results["ranking"]) + len(results["excluded"]) == 6
    first = results["bids"][results["ranking"][0]]
    assert first["rank"] == 1
    whole, cents = first["net_plan_cost"].split(".")
    assert whole.isdigit() and len(cents) == 2
    assert len(first["wall_hours"].split(".")[1]) == 1
    assert len(first["effective_mfu"].split(".")[1]) == 3
    for bid_id in results["excluded"]:
        assert (
            results["bids"][bid_id]["rank"] is None
            and results["bids"][bid_id]["net_plan_cost"] is None
        )


def test_a_changed_price_changes_the_rescore(scorecard):
    data = build_memo_inputs(scorecard, approvers=APPROVERS).data
    tampered = json.loads(json.dumps(data))
    first = data["results"]["ranking"][0]
    bid = next(b for b in tampered["evaluation"]["bids"] if b["id"] == first)
    # Twice the price per GPU-hour at least doubles the compute part of the cost to finish.
    bid["terms"]["price_per_gpu_hour"] = str(2 * float(bid["terms"]["price_per_gpu_hour"]))
    assert (
        rescore_memo_inputs(tampered)["bids"][first]["net_plan_cost"]
        != data["results"]["bids"][first]["net_plan_cost"]
    )


def test_malformed_inputs_are_refused_with_a_clear_message(scorecard):
    with pytest.raises(InputError, match="format"):
        rescore_memo_inputs({"format": "something-else"})
    with pytest.raises(InputError, match="'evaluation' field is missing"):
        rescore_memo_inputs({"format": "clusterbid-memo-inputs/1"})
    data = json.loads(build_memo_inputs(scorecard, approvers=APPROVERS).canonical_bytes())
    data["evaluation"]["bids"][0]["capacity"]["gpus_offered"] = -5
    with pytest.raises(InputError, match=r"bids\[0\]\.capacity\.gpus_offered"):
        rescore_memo_inputs(data)
    with pytest.raises(InputError, match="not UTF-8 JSON"):
        parse_memo_inputs(b"\xff{")


def test_override_needs_a_justification_and_a_ranked_bid(scorecard):
    second = scorecard.ranked[1].bid.id
    with pytest.raises(InputError, match="needs a written justification"):
        build_memo_inputs(
            scorecard, approvers=APPROVERS, override=RecommendationOverride(second, "  ")
        )
    excluded = next(s.bid.id for s in scorecard.scores if s.rank is None)
    with pytest.raises(InputError, match="not a ranked bid"):
        build_memo_inputs(
            scorecard, approvers=APPROVERS, override=RecommendationOverride(excluded, "why")
        )
    inputs = build_memo_inputs(
        scorecard, approvers=APPROVERS, override=RecommendationOverride(second, "Data residency")
    )
    assert inputs.data["override"] == {"bid_id": second, "justification": "Data residency"}


def test_approver_parsing():
    assert Approver.parse(" Ada Lovelace ,  CFO, Finance ") == Approver(
        "Ada Lovelace", "CFO, Finance"
    )
    with pytest.raises(InputError, match="Name, Role"):
        Approver.parse("Ada Lovelace")
