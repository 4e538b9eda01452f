"""Issue 37: sizing only the candidates that could be the cheapest (serving_sizing) gives exactly
the fleet of sizing every candidate, in the point estimate and in Monte Carlo draws."""

from __future__ import annotations

import json
from dataclasses import fields

import numpy as np
import pytest
from serving_builders import serving_bid, serving_workload
from tests.conftest import EXAMPLES

import clusterbid.core.costmodel.serving as serving
import clusterbid.core.uncertainty.serving_montecarlo as mc
from clusterbid.core.costmodel.serving_estimate import estimate_serving
from clusterbid.core.costmodel.serving_queue import replicas_with_headroom
from clusterbid.core.evaluation import Evaluation


def _size_every_candidate(
    minimum, batch, arrivals, service, slack, percentile, exact_slots, *, spares, **_
):
    return (
        replicas_with_headroom(minimum, batch, arrivals, service, slack, percentile, exact_slots)
        + spares
    )


def _cases():
    demo = Evaluation.model_validate(
        json.loads((EXAMPLES / "demo-serving-evaluation.json").read_text("utf-8"))
    )
    yield demo.workload, list(demo.bids)
    floor = {"billing": "committed-gpu-hours", "term_months": 12, "committed_gpu_hours": 200_000}
    yield (
        serving_workload(peak_requests_per_s=30, average_requests_per_s=12, spare_replicas=2),
        [
            serving_bid("a"),
            serving_bid("b", "H200-SXM", "3.40"),
            serving_bid("floored", terms=floor),
        ],
    )
    yield (
        serving_workload(tpot_target_ms=60, ttft_target_ms=400, forecast_margin_percent=0),
        [
            serving_bid("a", price="1.90"),
            serving_bid("wide", capacity={"gpus_per_node": 4, "largest_contiguous_block_gpus": 4}),
        ],
    )


@pytest.mark.parametrize("case", range(3))
def test_the_point_estimate_is_unchanged_by_sizing_fewer_candidates(case, monkeypatch):
    workload, bids = list(_cases())[case]
    pruned = estimate_serving(workload, bids)
    monkeypatch.setattr(serving, "replicas_near_cheapest", _size_every_candidate)
    full = estimate_serving(workload, bids)
    names = [
        f.name for f in fields(type(pruned.bids[0])) if f.name not in ("bid", "gates", "warnings")
    ]
    for p, f in zip(pruned.bids, full.bids, strict=True):
        assert [getattr(p, n) for n in names] == [getattr(f, n) for n in names]
        assert [g.message for g in p.gates] == [g.message for g in f.gates]


def test_the_monte_carlo_draws_are_unchanged_by_sizing_fewer_candidates(monkeypatch):
    workload, bids = next(_cases())
    estimates = estimate_serving(workload, bids)
    pruned = mc.serving_uncertainty(estimates, samples=300)
    monkeypatch.setattr(serving, "replicas_near_cheapest", _size_every_candidate)
    full = mc.serving_uncertainty(estimates, samples=300)
    for p, f in zip(pruned.bands, full.bands, strict=True):
        assert np.array_equal(p.cost_per_million, f.cost_per_million, equal_nan=True)
        assert np.array_equal(p.monthly_cost, f.monthly_cost, equal_nan=True)
        assert (p.chance_cheapest, p.fleet_at_percentile) == (
            f.chance_cheapest,
            f.fleet_at_percentile,
        )
