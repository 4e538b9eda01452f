"""Issue 37, item 4: a traffic profile and a reserved base plus on-demand burst, worked by hand.

The service peaks at 20 requests/s for 4 hours a day and averages 6, so the other 20 hours run at
(24 x 6 - 4 x 20) / 20 = 3.2 requests/s. Each level's fleet is sized here by the textbook M/M/c
queue (Erlang C through Erlang B's recursion) with the estimate's replica (throughput, batch,
first-token and per-token times): +20% forecast margin, fewest replicas whose P90 wait fits the
1,000 ms target, one spare, whole 8-GPU nodes. The bill of each possible reserved base R is
2.00 x R x 730 + 3.00 x burst GPU-hours, and the cheapest wins.
"""

from __future__ import annotations

import math

import pytest
from serving_builders import serving_bid, serving_workload

import clusterbid.core.uncertainty.serving_montecarlo as mc
from clusterbid.core.costmodel.serving_estimate import estimate_serving
from clusterbid.core.serving_traffic import traffic_levels
from clusterbid.core.uncertainty import serving_draws

PEAK, AVERAGE, PEAK_HOURS, OUTPUT, TARGET_S, MARGIN = 20.0, 6.0, 4, 600, 1.0, 1.2
PRICE, BURST, HOURS = 2.00, 3.00, 730.0
NO_FEES = {"one_off_fees": "0", "recurring_fees_per_month": "0"}


def _erlang_c(servers: int, load: float) -> float:
    b = 1.0
    for k in range(1, servers + 1):
        b = load * b / (k + load * b)
    return servers * b / (servers - load * (1 - b))


def _p90_wait_s(servers: int, rate: float, service_s: float) -> float:
    load = rate * service_s
    if load >= servers:
        return math.inf
    chance = _erlang_c(servers, load) if servers else 0.0
    return 0.0 if chance <= 0.1 else service_s / (servers - load) * math.log(chance / 0.1)


def _gpus_at(e, requests_per_s: float) -> int:
    service = (e.ttft_ms - e.tpot_ms) / 1000 + OUTPUT * e.tpot_ms / 1000
    rate = requests_per_s * MARGIN
    n = math.ceil(rate * OUTPUT / e.replica_tokens_per_s)
    while e.ttft_ms / 1000 + _p90_wait_s(n * e.batch, rate, service) > TARGET_S:
        n += 1
    return math.ceil((n + 1) * e.tensor_parallel / 8) * 8


def _estimate(burst: str | None = f"{BURST:.2f}", **workload):
    w = serving_workload(peak_requests_per_s=PEAK, average_requests_per_s=AVERAGE, **workload)
    terms = dict(NO_FEES, **({"burst_price_per_gpu_hour": burst} if burst else {}))
    return estimate_serving(w, [serving_bid("s1", price=f"{PRICE:.2f}", terms=terms)])


def test_the_reserved_base_and_burst_hours_are_the_cheapest_plan_by_hand():
    e = _estimate(peak_hours_per_day=PEAK_HOURS).bids[0]
    base_rate = (24 * AVERAGE - PEAK_HOURS * PEAK) / (24 - PEAK_HOURS)
    assert base_rate == pytest.approx(3.2)
    at_base, at_peak = _gpus_at(e, base_rate), _gpus_at(e, PEAK)
    assert at_peak == e.gpus_billed and at_base < at_peak  # the profile leaves room to burst
    off_hours, peak_hours = HOURS * 20 / 24, HOURS * 4 / 24
    bills = {
        r: PRICE * r * HOURS
        + BURST * (off_hours * max(0, at_base - r) + peak_hours * max(0, at_peak - r))
        for r in (0, at_base, at_peak)
    }
    reserved = min(bills, key=lambda r: (bills[r], -r))
    assert reserved == at_base  # 4 h at peak on demand beats reserving the peak all month
    assert e.reserved_gpus == reserved
    assert e.burst_gpu_hours == pytest.approx(peak_hours * (at_peak - at_base), rel=1e-12)
    assert e.monthly_cost == pytest.approx(bills[reserved], rel=1e-12)
    assert e.cost_per_million_tokens == pytest.approx(
        bills[reserved] / (AVERAGE * OUTPUT * HOURS * 3600) * 1e6
    )
    flat = _estimate(burst=None, peak_hours_per_day=PEAK_HOURS).bids[0]
    assert (
        flat.monthly_cost == pytest.approx(PRICE * at_peak * HOURS)
        and flat.reserved_gpus == at_peak
    )


def test_a_dear_burst_price_reserves_the_peak_and_without_a_profile_nothing_bursts():
    dear = _estimate(burst="50.00", peak_hours_per_day=PEAK_HOURS).bids[0]
    assert (dear.reserved_gpus, dear.burst_gpu_hours) == (dear.gpus_billed, 0.0)
    assert dear.monthly_cost == pytest.approx(PRICE * dear.gpus_billed * HOURS)
    silent = _estimate().bids[0]  # a burst price but no profile: the peak fleet, reserved all month
    assert (silent.reserved_gpus, silent.burst_gpu_hours) == (silent.gpus_billed, 0.0)


def test_a_commitment_floors_the_reserved_hours():
    # 20,000 GPU-hours a month committed over 12 months: the reserved base bills at least that.
    w = serving_workload(
        peak_requests_per_s=PEAK, average_requests_per_s=AVERAGE, peak_hours_per_day=PEAK_HOURS
    )
    terms = dict(
        NO_FEES,
        burst_price_per_gpu_hour=f"{BURST:.2f}",
        committed_gpu_hours=240_000,
        billing="committed-gpu-hours",
        term_months=12,
    )
    e = estimate_serving(w, [serving_bid("s1", price=f"{PRICE:.2f}", terms=terms)]).bids[0]
    assert e.monthly_cost >= PRICE * 20_000 - 1e-6
    assert e.monthly_cost == pytest.approx(
        PRICE * max(e.reserved_gpus * HOURS, 20_000) + BURST * e.burst_gpu_hours
    )


def test_an_hourly_shape_prices_each_hour():
    # 20 req/s for 2 hours, 12 for 6, 3.2 for 16: mean (40 + 72 + 51.2) / 24 = 6.8.
    shape = [1.0] * 2 + [0.6] * 6 + [0.16] * 16
    w_levels = traffic_levels(
        serving_workload(
            peak_requests_per_s=PEAK, average_requests_per_s=6.8, hourly_share_of_peak=shape
        )
    )
    assert [s for s, _ in w_levels] == [0.16, 0.6, 1.0]
    assert [h for _, h in w_levels] == pytest.approx([16 / 24, 6 / 24, 2 / 24])
    est = estimate_serving(
        serving_workload(
            peak_requests_per_s=PEAK, average_requests_per_s=6.8, hourly_share_of_peak=shape
        ),
        [
            serving_bid(
                "s1",
                price=f"{PRICE:.2f}",
                terms=dict(NO_FEES, burst_price_per_gpu_hour=f"{BURST:.2f}"),
            )
        ],
    )
    e = est.bids[0]
    needs = {share: _gpus_at(e, share * PEAK) for share in (0.16, 0.6, 1.0)}
    hours = {0.16: HOURS * 16 / 24, 0.6: HOURS * 6 / 24, 1.0: HOURS * 2 / 24}
    bills = {
        r: PRICE * r * HOURS + BURST * sum(h * max(0, needs[s] - r) for s, h in hours.items())
        for r in (0, *needs.values())
    }
    reserved = min(bills, key=lambda r: (bills[r], -r))
    assert (e.reserved_gpus, e.monthly_cost) == (
        reserved,
        pytest.approx(bills[reserved], rel=1e-12),
    )


@pytest.mark.parametrize(
    "profile, words",
    [
        ({"peak_hours_per_day": 10}, "already averages"),
        ({"hourly_share_of_peak": [1.0] * 23}, "needs 24 values"),
        ({"hourly_share_of_peak": [0.5] * 24}, "largest value must be 1"),
        ({"hourly_share_of_peak": [1.0] + [1.5] + [0.2] * 22}, "hour 1 is 1.5"),
        ({"hourly_share_of_peak": [1.0] * 24}, "set the average to 20"),
        ({"hourly_share_of_peak": [1.0] * 24, "peak_hours_per_day": 3}, "not both"),
    ],
)
def test_a_profile_that_contradicts_the_rates_is_refused_in_words(profile, words):
    with pytest.raises(ValueError, match=words):
        serving_workload(peak_requests_per_s=PEAK, average_requests_per_s=AVERAGE, **profile)


def test_the_monte_carlo_bills_each_draw_over_the_profile(monkeypatch):
    # Without spread every draw is the point estimate's fleet: the bands must carry the burst bill.
    monkeypatch.setattr(serving_draws, "MBU_SIGMA", dict.fromkeys(serving_draws.MBU_SIGMA, 0.0))
    monkeypatch.setattr(serving_draws, "MARKET_MBU_SIGMA", 0.0)
    monkeypatch.setattr(serving_draws, "COMPUTE_SIGMA", 0.0)
    monkeypatch.setattr(serving_draws, "ENGINE_SPREAD_SCALE", 0.0)  # issue 37: no engine reach
    estimates = _estimate(peak_hours_per_day=PEAK_HOURS)
    band = mc.serving_uncertainty(estimates, samples=30).bands[0]
    e = estimates.bids[0]
    assert e.bursts and band.monthly_cost == pytest.approx((e.monthly_cost,) * 3, rel=1e-12)
    # And with spread, a dearer draw still bills the base plus burst, below the all-reserved bill.
    monkeypatch.undo()
    bursting = mc.serving_uncertainty(estimates, samples=400).bands[0]
    reserved = mc.serving_uncertainty(
        _estimate(burst=None, peak_hours_per_day=PEAK_HOURS), samples=400
    ).bands[0]
    assert all(b < r for b, r in zip(bursting.monthly_cost, reserved.monthly_cost))
