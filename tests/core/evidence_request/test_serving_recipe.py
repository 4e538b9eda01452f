"""The serving benchmark a request asks for: lengths, concurrency ladder and server line worked
by hand from the workload's figures (Little's law: requests in flight = arrivals x seconds)."""

from __future__ import annotations

from pathlib import Path

from clusterbid.core.documents import read_evaluation
from clusterbid.core.evidence_request.serving_recipe import (
    concurrency_ladder,
    peak_concurrency,
    server_command,
    serving_runs,
)

EXAMPLES = Path(__file__).parents[3] / "resources" / "examples"


def _demo_workload():
    return read_evaluation(EXAMPLES / "demo-serving-evaluation.json").workload


def _small_workload():
    # 2 requests/s, each living 0.5 s to its first token and 100 x 0.05 s = 5 s after:
    # 2 x 5.5 = 11 requests in flight at peak.
    return _demo_workload().model_copy(
        update={
            "peak_requests_per_s": 2.0,
            "average_requests_per_s": 1.0,
            "ttft_target_ms": 500.0,
            "output_tokens": 100,
            "tpot_target_ms": 50.0,
        }
    )


def test_ladder_doubles_up_to_the_peak_load_by_littles_law():
    w = _small_workload()
    assert peak_concurrency(w) == 11
    assert concurrency_ladder(w) == [1, 2, 4, 8, 11]


def test_demo_ladder_stops_at_one_replicas_batch_slots():
    # Demo: 120 requests/s x (1.0 s + 600 x 0.030 s = 19 s) = 2,280 in flight across the fleet;
    # one replica's batch holds 256, so the ladder ends there.
    w = _demo_workload()
    assert peak_concurrency(w) == 2280
    assert concurrency_ladder(w) == [1, 2, 4, 8, 16, 32, 64, 128, 256]


def test_each_run_is_at_the_workloads_lengths_and_returns_a_named_json():
    w = _small_workload()
    runs = serving_runs(w, "org/model", 4, 8, "CBR-0123456789")
    assert [r.return_as for r in runs][-1] == "CBR-0123456789_c11.json"
    last = runs[-1].command_line()
    assert "--random-input-len 1000 --random-output-len 100" in last
    assert "--max-concurrency 11" in last
    assert "--num-prompts 200" in last  # 10 x 11 = 110, raised to the 200 floor
    assert all(r.gpus == 4 and r.nodes == 1 for r in runs)
    # TP 16 on 8-GPU nodes spans two nodes.
    assert serving_runs(w, "org/model", 16, 8, "x")[0].nodes == 2


def test_server_line_carries_precision_tp_and_context():
    line = server_command(_demo_workload(), "org/model", 4)
    # Demo: FP8 weights, BF16 KV cache, 1,000 + 600 = 1,600 tokens of context.
    assert line == (
        "vllm serve org/model --tensor-parallel-size 4 --max-model-len 1600 "
        "--max-num-seqs 256 --quantization fp8"
    )
