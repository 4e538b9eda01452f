"""Monotone properties of the serving cost: more HBM bandwidth never raises it, a tighter
latency target never lowers it (a bid that cannot serve counts as infinitely expensive)."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from serving_builders import serving_bid, serving_workload

from clusterbid.core.catalog import default_catalog
from clusterbid.core.costmodel.serving import fleet, replica_grid
from clusterbid.core.costmodel.serving_inputs import ServingScalars, build_serving_arrays

BIDS = [
    serving_bid("h100", "H100-SXM", "2.50"),
    serving_bid("h200", "H200-SXM", "3.00"),
    serving_bid("l40s", "L40S", "0.90", topology={"nvlink_domain_gpus": 1}),
    serving_bid("mi300x", "MI300X", "2.80"),
]

workloads = st.fixed_dictionaries(
    {
        "total_params_billions": st.floats(1, 400),
        "precision": st.sampled_from(["bf16", "fp8"]),
        "kv_cache_precision": st.sampled_from(["bf16", "fp8"]),
        "prompt_tokens": st.integers(16, 32_000),
        "output_tokens": st.integers(16, 4_000),
        "ttft_target_ms": st.floats(50, 10_000),
        "tpot_target_ms": st.floats(5, 200),
        "peak_requests_per_s": st.floats(0.1, 500),
        "average_share": st.floats(0.05, 1),
    }
)


def _cost(params: dict, bandwidth_factor: float = 1.0) -> np.ndarray:
    params = dict(params)
    share = params.pop("average_share")
    workload = serving_workload(
        **params, average_requests_per_s=params["peak_requests_per_s"] * share
    )
    w = ServingScalars.from_workload(workload)
    arrays = build_serving_arrays(workload, BIDS, default_catalog(), [1.0] * len(BIDS))
    arrays = arrays.replace(hbm_bandwidth_bytes_s=arrays.hbm_bandwidth_bytes_s * bandwidth_factor)
    cost = fleet(w, arrays, replica_grid(w, arrays)).cost_per_million_tokens
    return np.where(np.isnan(cost), np.inf, cost)


@settings(max_examples=60, deadline=None)
@given(workloads, st.floats(1.0, 4.0))
def test_more_hbm_bandwidth_never_raises_the_cost_per_million_tokens(params, factor):
    base, faster = _cost(params), _cost(params, factor)
    assert np.all(faster <= base * (1 + 1e-12))


@settings(max_examples=60, deadline=None)
@given(workloads, st.floats(0.1, 1.0), st.floats(0.1, 1.0))
def test_a_tighter_latency_target_never_lowers_the_cost(params, tpot_share, ttft_share):
    tighter = {
        **params,
        "tpot_target_ms": params["tpot_target_ms"] * tpot_share,
        "ttft_target_ms": params["ttft_target_ms"] * ttft_share,
    }
    assert np.all(_cost(tighter) >= _cost(params) * (1 - 1e-12))
