"""Workloads no bid can serve get a specific message and the bid is shown as unable to serve."""

from __future__ import annotations

import pytest
from pydantic import ValidationError
from serving_builders import serving_bid_dict, serving_dict, serving_workload

from clusterbid.core.evaluation import Evaluation
from clusterbid.core.serving_json import serving_scorecard_to_json
from clusterbid.core.serving_report import format_serving_table
from clusterbid.core.serving_scoring import score_serving_evaluation


def _scorecard(workload: dict, *bids: dict):
    return score_serving_evaluation(
        Evaluation.model_validate(
            {"title": "t", "workload": workload, "bids": list(bids) or [serving_bid_dict()]}
        )
    )


def test_a_kv_cache_larger_than_hbm_at_batch_one_is_named_and_the_bid_is_not_scored():
    # 100,000-token prompts: one sequence holds 100,600 x 327,680 B = 32.97 GB of KV. At TP1 an
    # H100 has 72 - 70 = 2 GB beside the FP8 weights.
    card = _scorecard(serving_dict(prompt_tokens=100_000, tensor_parallel=1))
    [score] = card.scores
    assert score.rank is None and score.weighted_score is None
    [gate] = score.estimate.gates
    assert gate.code == "kv_cache_exceeds_hbm"
    assert (
        "100,600 tokens needs 33.0 GB" in gate.message
        and "2.0 GB of usable HBM remain" in gate.message
    )
    bid_json = serving_scorecard_to_json(card)["bids"][0]
    assert bid_json["figures"] is None and bid_json["gates"]["passed"] is False
    assert "CANNOT SERVE" in format_serving_table(card)


def test_latency_targets_no_gpu_can_meet_are_named_with_the_best_it_can_do():
    # At TP8 on an H100 the weights alone take 70e9 / 8 / 2.345e12 = 3.73 ms per token: a 2 ms
    # target is out of reach on this bid at any batch.
    card = _scorecard(serving_dict(tpot_target_ms=2))
    [gate] = card.scores[0].estimate.gates
    assert gate.code == "latency_targets_unmeetable"
    assert "(target 2 ms)" in gate.message and "even at batch 1" in gate.message
    assert card.ranked == []


def test_a_bid_too_small_for_the_peak_is_shown_unable_to_serve():
    small = serving_bid_dict(
        "small", capacity={"gpus_offered": 8, "largest_contiguous_block_gpus": 8}
    )
    card = _scorecard(serving_dict(peak_requests_per_s=500, average_requests_per_s=100), small)
    [gate] = card.scores[0].estimate.gates
    assert gate.code == "not_enough_gpus" and "the offer holds 8" in gate.message


def test_fp8_on_a_gpu_without_fp8_tensor_cores_is_gated():
    card = _scorecard(serving_dict(), serving_bid_dict("a100", gpu="A100-80GB-SXM"))
    assert card.scores[0].estimate.gates[0].code == "precision_unsupported"


@pytest.mark.parametrize(
    ("overrides", "words"),
    [
        (
            {"average_requests_per_s": 20},
            "average_requests_per_s (20) cannot exceed peak_requests_per_s (10)",
        ),
        ({"kv_cache_bytes_per_token": 1000}, "not both"),
        ({"kv_heads": None}, "give kv_heads and head_dim"),
        ({"tensor_parallel": 3}, "tensor_parallel must be one of 1, 2, 4, 8"),
        # 405B in BF16 = 810 GB; the largest GPU (GB200, 186 GB x 0.9 = 167.4 GB) needs TP8.
        (
            {"total_params_billions": 405, "precision": "bf16", "tensor_parallel": 2},
            "raise tensor_parallel to at least 8",
        ),
    ],
)
def test_inconsistent_workloads_are_refused_with_the_rule(overrides, words):
    with pytest.raises(ValidationError) as info:
        serving_workload(**overrides)
    assert words in str(info.value)
