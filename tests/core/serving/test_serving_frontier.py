"""Issue 37 item 3: each bid's frontier (throughput per GPU against speed per user over batch
sizes) and its chart, one curve per bid that can serve."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from serving_builders import serving_bid, serving_workload

from clusterbid.core.charts.serving_frontier import frontier_chart
from clusterbid.core.costmodel.serving_estimate import estimate_serving
from clusterbid.core.costmodel.serving_frontier import serving_frontiers
from clusterbid.core.evaluation import Evaluation

DEMO = (
    Path(__file__).resolve().parents[3] / "resources" / "examples" / "demo-serving-evaluation.json"
)


def test_batch_one_on_one_gpu_reads_the_weights_once_per_token():
    # 8B in BF16 on one H100 with a small KV cache: at batch 1 a step reads 16e9 bytes of weights
    # at 3.35e12 x 0.7 B/s (the matmuls, 2 x 8e9 x (1 + 1,000/200) / 494.5e12 = 0.19 ms, hide),
    # plus 16,384 x 1,100 bytes of KV: the user sees 1 / that step, and the GPU the same.
    workload = serving_workload(
        total_params_billions=8,
        precision="bf16",
        tensor_parallel=1,
        kv_heads=None,
        head_dim=None,
        kv_cache_bytes_per_token=16_384,
        prompt_tokens=1000,
        output_tokens=200,
    )
    frontier = serving_frontiers(estimate_serving(workload, [serving_bid()]))[0]
    step = (16e9 + 16_384 * 1_100) / (3.35e12 * 0.7)
    assert frontier.batches[0] == 1
    assert frontier.tokens_per_s_per_user[0] == pytest.approx(1 / step, rel=1e-9)
    assert frontier.tokens_per_s_per_gpu[0] == pytest.approx(1 / step, rel=1e-9)
    # Larger batches trade speed per user for throughput per GPU, which flattens once the matmuls
    # bind (2 x 8e9 x 6 tokens per sequence / 494.5e12 = 0.194 ms a sequence: about 5,150 tokens/s).
    assert np.all(np.diff(frontier.tokens_per_s_per_user) < 0)
    assert np.all(np.diff(frontier.tokens_per_s_per_gpu) > -1e-6)
    assert frontier.tokens_per_s_per_gpu[-1] == pytest.approx(494.5e12 / (2 * 8e9 * 6), rel=0.05)


def test_the_demo_frontier_holds_each_costed_point_and_charts_one_curve_per_serving_bid():
    evaluation = Evaluation.model_validate(json.loads(DEMO.read_text(encoding="utf-8")))
    estimates = estimate_serving(evaluation.workload, evaluation.bids)
    frontiers = serving_frontiers(estimates)
    for e, f in zip(estimates.bids, frontiers, strict=True):
        if e.tensor_parallel is None:
            assert f.batches.size == 0
            continue
        at = int(np.flatnonzero(f.batches == e.batch)[0])
        assert f.tokens_per_s_per_gpu[at] == pytest.approx(e.tokens_per_s_per_gpu, rel=1e-12)
        assert (
            f.within_targets[at]
            and f.tokens_per_s_per_user[at] >= 1000 / evaluation.workload.tpot_target_ms
        )
    providers = {b.id: b.quote.provider for b in evaluation.bids}
    figure = frontier_chart(frontiers, providers, evaluation.workload.tpot_target_ms)
    ids = {line.get_gid() for line in figure.axes[0].get_lines()}
    serving = {e.bid.id for e in estimates.bids if e.tensor_parallel is not None}
    assert (
        serving <= ids
        and not ({e.bid.id for e in estimates.bids} - serving) & ids
        and "target" in ids
    )
