"""Issue 37, item 5: the chance that the fleet as costed meets the service's targets at peak.

Recomputed draw by draw here: each draw's efficiencies (the Monte Carlo's own common random
numbers) run through the single-point replica model; a draw meets the targets when some searched
batch keeps the time per token within 30 ms and the first token, with the textbook M/M/c P90
wait of the costed replicas at the stated peak (Erlang C through Erlang B's recursion), within
1,000 ms."""

from __future__ import annotations

import math

import numpy as np
import pytest
from serving_builders import serving_bid, serving_workload

import clusterbid.core.uncertainty.serving_montecarlo as mc
from clusterbid.core.catalog import default_catalog
from clusterbid.core.costmodel.serving import replica_grid
from clusterbid.core.costmodel.serving_calibration import calibrate_serving
from clusterbid.core.costmodel.serving_estimate import estimate_serving
from clusterbid.core.costmodel.serving_inputs import ServingScalars, build_serving_arrays
from clusterbid.core.serving_json import band_json
from clusterbid.core.serving_words import slo_text
from clusterbid.core.uncertainty import serving_draws
from clusterbid.core.uncertainty.serving_search import search

DRAWS = 40


def _p90_wait_s(servers: int, rate: float, service_s: float) -> float:
    load = rate * service_s
    if load >= servers:
        return math.inf
    b = 1.0
    for k in range(1, servers + 1):
        b = load * b / (k + load * b)
    chance = servers * b / (servers - load * (1 - b))
    return 0.0 if chance <= 0.1 else service_s / (servers - load) * math.log(chance / 0.1)


def _by_hand(estimates, workload) -> list[float]:
    bids = [e.bid for e in estimates.bids]
    w = ServingScalars.from_workload(workload)
    spec = build_serving_arrays(workload, bids, default_catalog(), [1.0] * len(bids))
    base, _, _ = calibrate_serving(w, spec, bids)
    mbu, compute = serving_draws.efficiency_draws(
        estimates, base.hbm_efficiency / spec.hbm_efficiency, DRAWS, mc.SEED
    )
    searched, batches, _ = search(w, estimates)
    chances = []
    for i, e in enumerate(estimates.bids):
        met = 0
        for d in range(DRAWS):
            one = base.replace(**{name: getattr(base, name)[i : i + 1] for name in base.__slots__})
            one = one.replace(
                hbm_efficiency=np.minimum(one.hbm_efficiency * mbu[i, d], 1.0),
                compute_efficiency=np.minimum(one.compute_efficiency * compute[i, d], 1.0),
            )
            grid = replica_grid(searched, one, batches)
            t = searched.tp_choices.index(e.tensor_parallel)
            for k, batch in enumerate(batches):
                tpot, ttft = float(grid.tpot_s[0, t, k]), float(grid.ttft_s[0, t, k])
                if not (grid.fits_hbm[0, t, k] and tpot <= 0.030 and ttft <= 1.0):
                    continue
                service = float(grid.prefill_s[0, t, 0]) + 600 * tpot
                if (
                    ttft
                    + _p90_wait_s(int(e.replicas * batch), workload.peak_requests_per_s, service)
                    <= 1.0
                ):
                    met += 1
                    break
        chances.append(met / DRAWS)
    return chances


def test_the_chance_of_meeting_the_targets_at_peak_matches_a_draw_by_draw_recount():
    workload = serving_workload(peak_requests_per_s=2, average_requests_per_s=1)
    estimates = estimate_serving(
        workload, [serving_bid("h100", price="3.00"), serving_bid("h200", "H200-SXM")]
    )
    bands = mc.serving_uncertainty(estimates, samples=DRAWS).bands
    chances = [b.chance_meets_slo_at_peak for b in bands]
    # Above 64 slots the model's queue is the Halfin-Whitt approximation: one draw in 40 may differ.
    assert chances == pytest.approx(_by_hand(estimates, workload), abs=1.5 / DRAWS)
    assert any(0 < c < 1 for c in chances), chances  # the draws do move the answer


def test_without_spread_the_costed_fleet_always_meets_the_targets(monkeypatch):
    monkeypatch.setattr(serving_draws, "MBU_SIGMA", dict.fromkeys(serving_draws.MBU_SIGMA, 0.0))
    monkeypatch.setattr(serving_draws, "MARKET_MBU_SIGMA", 0.0)
    monkeypatch.setattr(serving_draws, "COMPUTE_SIGMA", 0.0)
    monkeypatch.setattr(serving_draws, "ENGINE_SPREAD_SCALE", 0.0)  # issue 37: no engine reach
    estimates = estimate_serving(
        serving_workload(), [serving_bid("a"), serving_bid("b", "H200-SXM")]
    )
    assert [
        b.chance_meets_slo_at_peak for b in mc.serving_uncertainty(estimates, samples=20).bands
    ] == [1.0, 1.0]


def test_more_spare_replicas_never_lower_the_chance_and_it_is_printed():
    def chance(spares: int) -> float:
        estimates = estimate_serving(serving_workload(spare_replicas=spares), [serving_bid("a")])
        band = mc.serving_uncertainty(estimates, samples=200).bands[0]
        assert band_json(band, "USD")["chance_meets_slo_at_peak"] == round(
            band.chance_meets_slo_at_peak, 4
        )
        assert f"{band.chance_meets_slo_at_peak:.0%} of the Monte Carlo draws" in slo_text(
            band, estimates.bids[0]
        )
        return band.chance_meets_slo_at_peak

    assert chance(0) <= chance(1) <= chance(3)
    assert chance(0) < chance(3)


def test_a_bid_that_cannot_serve_has_no_chance_printed():
    estimates = estimate_serving(
        serving_workload(peak_requests_per_s=40),
        [serving_bid("a"), serving_bid("small", capacity={"gpus_offered": 8})],
    )
    assert not estimates.bids[1].passes_gates
    band = mc.serving_uncertainty(estimates, samples=20).bands[1]
    assert math.isnan(band.chance_meets_slo_at_peak) and slo_text(band, estimates.bids[1]) is None
