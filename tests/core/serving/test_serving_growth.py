"""Issue 37, item 1: traffic that grows over the term, fleets sized month by month, the reserved
base re-sized only where the contract allows, burst absorbing the rest.

Worked by hand. The test service (4 requests/s on average, 10 at peak, 600 output tokens), no
forecast margin and no spare replica, on 8-GPU H100 nodes at $3.00 an hour, fees none, net 30;
traffic grows 10% a month for 12 months, so month m runs at 1.1^(m-1) x the stated rates. Month
m's fleet is the fleet the same model sizes for a service that does not grow at that month's
rates (checked below against the model without growth): 8 GPUs for months 1-7 (1.1^6 = 1.77x) and
16 from month 8 (1.1^7 = 1.95x). A month of 8 reserved GPUs bills 8 x 730 x 3 = $17,520.

- fixed for the term, no burst: 16 GPUs reserved all 12 months, 12 x $35,040 = $420,480;
- re-sized every month: 7 x $17,520 + 5 x $35,040 = $297,840;
- fixed for the term with burst at $4.00: a base of 0 bills 7 x 8 x 730 x 4 + 5 x 16 x 730 x 4 =
  $397,120, of 8: 12 x $17,520 + 5 x 8 x 730 x 4 = $327,040, of 16: $420,480; so 8.

Tokens over the term: 4 x 600 x 730 x 3,600 = 6,307.2 million in month 1, times
sum(1.1^k, k = 0..11) = (1.1^12 - 1) / 0.1 = 21.384284 over the term.
"""

from __future__ import annotations

import pytest
from serving_builders import serving_bid, serving_workload

import clusterbid.core.uncertainty.serving_montecarlo as mc
from clusterbid.core.costmodel.serving_estimate import estimate_serving
from clusterbid.core.costmodel.serving_growth_words import growth_words, term_words
from clusterbid.core.evaluation import Evaluation
from clusterbid.core.serving_json import serving_scorecard_to_json
from clusterbid.core.serving_report import format_serving_table
from clusterbid.core.serving_scoring import score_serving_evaluation
from clusterbid.core.uncertainty import serving_draws

MONTH_OF_8 = 8 * 730 * 3.00
TERM_TOKENS_M = 4 * 600 * 730 * 3600 / 1e6 * (1.1**12 - 1) / 0.1
SIZING = {"forecast_margin_percent": 0, "spare_replicas": 0}


def _growing(**terms):
    workload = serving_workload(traffic_growth_percent_per_month=10, **SIZING)
    bid = serving_bid(terms=dict({"payment_terms_days": 30}, **terms))
    return estimate_serving(workload, [bid]).bids[0]


def test_each_months_fleet_is_the_model_without_growth_at_that_months_rates():
    e = _growing()
    for month, gpus in enumerate(e.gpus_at_peak_by_month, 1):
        factor = 1.1 ** (month - 1)
        still = serving_workload(
            peak_requests_per_s=10 * factor, average_requests_per_s=4 * factor, **SIZING
        )
        assert gpus == estimate_serving(still, [serving_bid()]).bids[0].gpus_billed, month
    assert e.gpus_at_peak_by_month == (8,) * 7 + (16,) * 5
    assert pytest.approx(6_307.2 * 21.384284, rel=1e-7) == TERM_TOKENS_M


def test_a_base_fixed_for_the_term_reserves_the_last_months_fleet_from_month_one():
    e = _growing()
    assert e.reserved_by_month == (16,) * 12
    assert e.monthly_bills == pytest.approx((2 * MONTH_OF_8,) * 12)
    assert e.monthly_cost == pytest.approx(420_480 / 12)
    assert e.cost_per_million_tokens == pytest.approx(420_480 / TERM_TOKENS_M, rel=1e-9)


def test_a_base_resized_every_month_follows_the_fleet():
    e = _growing(reserved_resize_months=1)
    assert e.reserved_by_month == (8,) * 7 + (16,) * 5
    assert sum(e.monthly_bills) == pytest.approx(297_840)
    assert e.monthly_bills[0] == pytest.approx(17_520) and e.monthly_bills[-1] == 35_040
    assert e.cost_per_million_tokens == pytest.approx(297_840 / TERM_TOKENS_M, rel=1e-9)
    # Every three months: months 7-9 share a block whose largest fleet is 16.
    quarterly = _growing(reserved_resize_months=3)
    assert quarterly.reserved_by_month == (8,) * 6 + (16,) * 6


def test_burst_absorbs_the_growth_above_the_cheapest_fixed_base():
    e = _growing(burst_price_per_gpu_hour="4.00")
    assert e.reserved_by_month == (8,) * 12
    assert sum(e.monthly_bills) == pytest.approx(327_040)
    assert e.monthly_bills[-1] == pytest.approx(17_520 + 8 * 730 * 4.00)
    assert e.burst_gpu_hours == pytest.approx(5 * 8 * 730 / 12)  # the term's average month
    assert e.cost_per_million_tokens == pytest.approx(327_040 / TERM_TOKENS_M, rel=1e-9)


def test_no_growth_is_the_model_as_before_and_shows_no_months():
    flat = estimate_serving(serving_workload(**SIZING), [serving_bid()]).bids[0]
    assert flat.monthly_bills is None and flat.gpus_at_peak_by_month is None
    assert flat.monthly_cost == pytest.approx(MONTH_OF_8)


def test_traffic_outgrowing_the_offer_is_flagged_in_words():
    workload = serving_workload(traffic_growth_percent_per_month=10, **SIZING)
    bid = serving_bid(capacity={"gpus_offered": 8, "largest_contiguous_block_gpus": 8})
    e = estimate_serving(workload, [bid]).bids[0]
    flag = next(w for w in e.warnings if w.code == "traffic_outgrows_offer")
    assert "needs 16 GPUs at peak by month 8, more than the 8 the bid offers" in flag.message


def test_the_bands_draw_the_growth_and_a_wider_spread_widens_them():
    """Growth drawn around 10% a month: the P10-P90 of the bill spans more with a 5-point spread
    than with none."""
    bids = [serving_bid("a", terms={"reserved_resize_months": 1}), serving_bid("b", price="3.30")]

    def band(spread: float):
        workload = serving_workload(
            traffic_growth_percent_per_month=10, growth_spread_percent_per_month=spread, **SIZING
        )
        return mc.serving_uncertainty(estimate_serving(workload, bids), samples=2000, seed=5)

    none, wide = band(0.0), band(5.0)
    assert none.bands[0].monthly_cost[2] - none.bands[0].monthly_cost[0] < (
        wide.bands[0].monthly_cost[2] - wide.bands[0].monthly_cost[0]
    )
    # The draws: normal around 10% a month, the stated spread, or half the growth when none is
    # stated (a ClusterBid default); 20,000 draws put the mean within 0.1 point of 10%.
    for stated, sd in ((5.0, 0.05), (None, 0.05), (2.0, 0.02)):
        workload = serving_workload(
            traffic_growth_percent_per_month=10, growth_spread_percent_per_month=stated
        )
        draws = serving_draws.growth_draws(workload, 20_000, 11)
        assert draws.mean() == pytest.approx(0.10, abs=0.001)
        assert draws.std() == pytest.approx(sd, rel=0.03)


def test_growth_is_shown_in_score_output_and_json():
    workload = serving_workload(traffic_growth_percent_per_month=10, **SIZING)
    evaluation = Evaluation(
        title="growth",
        workload=workload,
        bids=[serving_bid(terms={"reserved_resize_months": 1}), serving_bid("b", price="3.30")],
    )
    scorecard = score_serving_evaluation(evaluation)
    text = format_serving_table(scorecard)
    assert "traffic grows 10% a month (stated by the buyer): month 12 runs at 2.85x month 1" in text
    assert growth_words(workload) in text
    e = next(s.estimate for s in scorecard.scores if s.bid.id == "s1")
    words = term_words(e, "USD")
    assert words is not None and words in text
    assert "month 1 $17,520 (8 GPUs at peak, 8 reserved), month 12 $35,040" in words
    assert (
        "$297,840 over the 12 months" in words
        and "re-sized every month (stated by the provider)" in words
    )
    figures = next(b for b in serving_scorecard_to_json(scorecard)["bids"] if b["bid_id"] == "s1")
    months = figures["figures"]["months"]
    assert [m["gpus_at_peak"] for m in months] == [8] * 7 + [16] * 5
    assert float(months[-1]["bill"]["amount"]) == pytest.approx(35_040)


def test_the_serving_memo_shows_the_growth_and_the_term():
    from clusterbid.core.memo.serving_memo import decision_rows

    workload = serving_workload(traffic_growth_percent_per_month=10, **SIZING)
    evaluation = Evaluation(
        title="growth",
        workload=workload,
        bids=[
            serving_bid(terms={"burst_price_per_gpu_hour": "4.00"}),
            serving_bid("b", price="3.30"),
        ],
    )
    rows = dict(decision_rows(score_serving_evaluation(evaluation), None)[0])
    assert rows["Over the term"].startswith("month 1 $17,520 (8 GPUs at peak, 8 reserved)")
    assert "$327,040 over the 12 months" in rows["Over the term"]
    assert (
        "the reserved base fixed for the term (the bid does not say it may change)"
        in (rows["Over the term"])
    )
    assert (
        "the draw's peak month (the term's last while the traffic grows)"
        in rows["Fleet for approval"]
    )


def test_the_linear_memory_base_is_the_one_months_rule_on_random_blocks():
    """cheapest_base against serving_burst.cheapest_reserved (the direct form) on random needs in
    whole nodes, hours, prices and commitment floors: the same base every time."""
    import numpy as np

    from clusterbid.core.costmodel.serving_burst import cheapest_reserved
    from clusterbid.core.costmodel.serving_growth import cheapest_base

    rng = np.random.default_rng(37)
    for _ in range(50):
        rows, cells = 20, int(rng.integers(1, 40))
        needs = 8.0 * rng.integers(0, 12, size=(rows, cells))
        hours = rng.dirichlet(np.ones(cells)) * 730 * rng.integers(1, 4)
        price = rng.uniform(1, 4, rows)
        burst = price * rng.uniform(0.8, 3.0, rows)
        floor = np.where(rng.random(rows) < 0.3, rng.uniform(0, 80 * 730, rows), 0.0)
        direct = cheapest_reserved(needs, hours, price, burst, floor).reserved_gpus
        assert np.array_equal(cheapest_base(needs, hours, price, burst, floor), direct)
