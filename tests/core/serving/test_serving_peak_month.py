"""Issue 37, items 4 and 5: a service whose traffic grows has its fleet's size and its chance of
meeting the targets judged at the term's peak month, not at month 1.

The test service (10 requests/s at peak, 4 on average, 600 output tokens), no forecast margin and
no spare replica, on 8-GPU H100 nodes at $3.00; traffic grows 10% a month for 12 months, so month
12 runs at 1.1^11 = 2.853x the stated rates (test_serving_growth: 8 GPUs in months 1-7, 16 from
month 8). The fleet at month 12 is checked against the model without growth at month 12's rates.

The chance of meeting the targets is recounted draw by draw with the textbook M/M/c P90 wait
(Erlang C through Erlang B's recursion), efficiencies fixed (no spread), the growth drawn from its
stream here: normal around 10% with the stated spread, never below -50% a month. A draw meets
the targets when month 1's fleet carries month 1's peak and month 12's fleet carries month 12's
peak at the draw's growth.
"""

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
from clusterbid.core.serving_report import format_serving_table
from clusterbid.core.serving_words import slo_text
from clusterbid.core.uncertainty import serving_draws
from clusterbid.core.uncertainty.serving_search import search
from clusterbid.core.uncertainty.streams import MARKET, stream

SIZING = {"forecast_margin_percent": 0, "spare_replicas": 0}
MONTH_12 = 1.1**11
DRAWS = 60


def _no_efficiency_spread(monkeypatch):
    monkeypatch.setattr(serving_draws, "MBU_SIGMA", dict.fromkeys(serving_draws.MBU_SIGMA, 0.0))
    monkeypatch.setattr(serving_draws, "MARKET_MBU_SIGMA", 0.0)
    monkeypatch.setattr(serving_draws, "COMPUTE_SIGMA", 0.0)
    monkeypatch.setattr(serving_draws, "ENGINE_SPREAD_SCALE", 0.0)  # issue 37: no engine reach


def test_the_fleet_at_the_peak_month_is_month_12s_and_the_table_says_so():
    workload = serving_workload(traffic_growth_percent_per_month=10, **SIZING)
    e = estimate_serving(workload, [serving_bid()]).bids[0]
    still = serving_workload(
        peak_requests_per_s=10 * MONTH_12, average_requests_per_s=4 * MONTH_12, **SIZING
    )
    at_12 = estimate_serving(still, [serving_bid()]).bids[0]
    assert e.peak_month == 12
    assert (e.gpus_needed_at_peak_month, e.gpus_billed_at_peak_month) == (
        at_12.gpus_needed,
        at_12.gpus_billed,
    )
    assert e.gpus_billed_at_peak_month == 16 and e.gpus_billed == 8  # month 1's, unchanged
    assert e.replicas_by_month[0] == e.replicas and e.replicas_by_month[-1] == at_12.replicas
    from clusterbid.core.evaluation import Evaluation
    from clusterbid.core.serving_scoring import score_serving_evaluation

    card = score_serving_evaluation(Evaluation(title="g", workload=workload, bids=[serving_bid()]))
    table = format_serving_table(card)
    assert (
        f"{at_12.gpus_needed:,} needed, 16 billed in month 12, the term's peak month (the traffic "
        "grows every month)"
    ) in table


def test_a_falling_service_peaks_in_month_1():
    workload = serving_workload(traffic_growth_percent_per_month=-5, **SIZING)
    e = estimate_serving(workload, [serving_bid()]).bids[0]
    assert e.peak_month == 1
    assert (e.gpus_needed_at_peak_month, e.gpus_billed_at_peak_month) == (
        e.gpus_needed,
        e.gpus_billed,
    )


def test_the_approval_fleet_is_the_peak_months_when_the_growth_is_certain(monkeypatch):
    _no_efficiency_spread(monkeypatch)
    workload = serving_workload(
        traffic_growth_percent_per_month=10, growth_spread_percent_per_month=0, **SIZING
    )
    estimates = estimate_serving(workload, [serving_bid()])
    e = estimates.bids[0]
    band = mc.serving_uncertainty(estimates, samples=20).bands[0]
    needed, billed, _ = band.fleet_at_percentile
    assert (needed, billed) == (e.gpus_needed_at_peak_month, 16)
    assert band.chance_meets_slo_at_peak == 1.0  # each month's fleet carries its own peak


def _p90_wait_s(servers: int, rate: float, service_s: float) -> float:
    load = rate * service_s
    if load >= servers:
        return math.inf
    b = 1.0
    for k in range(1, servers + 1):
        b = load * b / (k + load * b)
    chance = servers * b / (servers - load * (1 - b))
    return 0.0 if chance <= 0.1 else service_s / (servers - load) * math.log(chance / 0.1)


def _recount(workload, estimates, growth: np.ndarray, flat: bool = False) -> float:
    """The share of draws in which month 1's and month 12's fleets meet their months' peaks."""
    e = estimates.bids[0]
    bids = [e.bid]
    w = ServingScalars.from_workload(workload)
    spec = build_serving_arrays(workload, bids, default_catalog(), [1.0])
    base, _, _ = calibrate_serving(w, spec, bids)
    searched, batches, _ = search(w, estimates)
    grid = replica_grid(searched, base, batches)
    t = searched.tp_choices.index(e.tensor_parallel)

    def meets(replicas: int, rate: float) -> bool:
        for k, batch in enumerate(batches):
            tpot, ttft = float(grid.tpot_s[0, t, k]), float(grid.ttft_s[0, t, k])
            if not (grid.fits_hbm[0, t, k] and tpot <= 0.030 and ttft <= 1.0):
                continue
            service = float(grid.prefill_s[0, t, 0]) + 600 * tpot
            if ttft + _p90_wait_s(int(replicas * batch), rate, service) <= 1.0:
                return True
        return False

    first, last = (e.replicas, e.replicas) if flat else e.replicas_by_month[::11]
    met = [meets(first, 10.0) and meets(last, 10.0 * (1 + g) ** 11) for g in growth]
    return sum(met) / len(met)


def test_the_chance_of_meeting_the_targets_is_judged_at_the_peak_month(monkeypatch):
    _no_efficiency_spread(monkeypatch)
    workload = serving_workload(
        traffic_growth_percent_per_month=10, growth_spread_percent_per_month=3, **SIZING
    )
    estimates = estimate_serving(workload, [serving_bid()])
    band = mc.serving_uncertainty(estimates, samples=DRAWS).bands[0]
    z = stream(mc.SEED, MARKET, "serving_growth").standard_normal(DRAWS)
    growth = np.maximum(0.10 + 0.03 * z, -0.5)
    expected = _recount(workload, estimates, growth)
    # Above 64 slots the model's queue is the Halfin-Whitt approximation: one draw may differ.
    assert band.chance_meets_slo_at_peak == pytest.approx(expected, abs=1.5 / DRAWS)
    # Judged at month 1 alone (the old rule) every draw met the targets: month 1's traffic does
    # not depend on the growth. Drawn faster growth does fall short at month 12.
    assert _recount(workload, estimates, np.zeros(DRAWS)) == 1.0
    assert 0.2 < expected < 0.95, expected
    words = slo_text(band, estimates.bids[0])
    assert "at the peak of month 1 and of month 12, the term's last, with the growth drawn" in words


def test_a_drawn_growth_around_none_is_judged_at_the_last_month_too(monkeypatch):
    """No growth stated but a spread of 5 points a month: the plan is flat (one fleet all term),
    and the draws that grow faster than nothing must still be carried in month 12."""
    _no_efficiency_spread(monkeypatch)
    workload = serving_workload(
        traffic_growth_percent_per_month=0, growth_spread_percent_per_month=5, **SIZING
    )
    estimates = estimate_serving(workload, [serving_bid()])
    e = estimates.bids[0]
    assert e.replicas_by_month is None and e.peak_month is None  # the plan does not grow
    band = mc.serving_uncertainty(estimates, samples=DRAWS).bands[0]
    assert band.judged_months == (1, 12)
    # Half the draws grow (z > 0); those growing enough to outrun the flat fleet's headroom by
    # month 12 fall short there, while at month 1 (the old rule) every draw met the targets.
    z = stream(mc.SEED, MARKET, "serving_growth").standard_normal(DRAWS)
    growth = np.maximum(0.05 * z, -0.5)
    assert band.chance_meets_slo_at_peak == pytest.approx(
        _recount(workload, estimates, growth, flat=True), abs=1.5 / DRAWS
    )
    assert _recount(workload, estimates, np.zeros(DRAWS), flat=True) == 1.0
    assert 0.5 < band.chance_meets_slo_at_peak < 0.95
    assert "at the peak of month 1 and of month 12" in slo_text(band, e)


def test_the_memo_bills_a_growing_fleet_at_its_average_and_names_the_peak_month():
    from clusterbid.core.evaluation import Evaluation
    from clusterbid.core.memo.serving_memo import decision_rows
    from clusterbid.core.serving_scoring import score_serving_evaluation

    workload = serving_workload(traffic_growth_percent_per_month=10, **SIZING)
    card = score_serving_evaluation(Evaluation(title="g", workload=workload, bids=[serving_bid()]))
    rows = dict(decision_rows(card, None)[0])
    # Fixed for the term: 16 GPUs reserved all 12 months, 16 x 730 x $3.00 = $35,040 a month.
    assert rows["Monthly cost"] == (
        "$35,040 a month on average over the term, for 16 GPUs reserved all term; the fleet at "
        "peak is 16 GPUs in month 12, the term's peak month (8 in month 1)"
    )
