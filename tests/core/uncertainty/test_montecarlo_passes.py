"""The Monte Carlo's cheaper passes (issue 32 item 4) give the very bits of the plain formulas:
the triangular draw of a term whose mode is its low end, the common draws added in grouped
passes, and the outcomes written straight into the run's arrays."""

from __future__ import annotations

import numpy as np
import pytest

from clusterbid.core.demo import demo_evaluation
from clusterbid.core.uncertainty import run_monte_carlo, sampling
from clusterbid.core.uncertainty.draw_setup import Outcomes, _rows_at, _shared_passes
from clusterbid.core.uncertainty.spreads import Spreads
from clusterbid.core.uncertainty.term_ranges import draw_many, triangular


def two_sided(u: np.ndarray, low, likely, high) -> np.ndarray:
    """The inverse triangular CDF as written in any textbook, both sides computed."""
    width = high - low
    rising = low + np.sqrt(u * width * (likely - low))
    falling = high - np.sqrt((1.0 - u) * width * (high - likely))
    return np.where(u < (likely - low) / width, rising, falling)


def test_a_term_whose_mode_is_its_low_end_draws_the_two_sided_formulas_bits():
    u = np.random.default_rng(3).random((3, 5000))
    low = likely = np.array([[0.0], [2.0], [5.0]])
    high = np.array([[30.0], [9.5], [60.0]])
    assert np.array_equal(triangular(u, low, likely, high), two_sided(u, low, likely, high))
    units = np.array([[1.0], [100.0], [1.0]])
    assert np.array_equal(
        draw_many(u, low, likely, high, units), two_sided(u, low, likely, high) / units
    )
    # Payment terms nobody stated: due on invoice (0 days) most likely, net 30 at most. By hand:
    # u = 0.75 -> 30 - sqrt(0.25 x 30 x 30) = 15 days.
    assert triangular(np.array([0.75]), 0.0, 0.0, 30.0)[0] == 15.0


def test_a_mode_inside_the_range_still_draws_both_sides():
    u = np.random.default_rng(4).random((2, 4000))
    low, likely, high = (
        np.array([[0.0], [3.0]]),
        np.array([[10.0], [7.0]]),
        np.array([[30.0], [10.0]]),
    )
    got = triangular(u, low, likely, high)
    assert np.array_equal(got, two_sided(u, low, likely, high))
    assert (got < likely).any() and (got > likely).any()


def test_common_draws_added_in_grouped_passes_keep_each_rows_order_and_bits():
    rng = np.random.default_rng(5)
    common = {owner: rng.standard_normal(64).astype(np.float32) for owner in "abcd"}
    # Rows that meet the owners in different orders, one row with none, sigmas of mixed size.
    uses = [
        (0, "a", 0.1),
        (0, "b", 0.3),
        (1, "b", 0.2),
        (1, "a", 0.7),
        (2, "c", 0.05),
        (3, "a", 0.4),
        (3, "d", 0.9),
        (3, "b", 0.11),
        (5, "d", 0.6),
    ]
    start = rng.standard_normal((6, 64)).astype(np.float32)
    by_row = start.copy()
    for row, owner, sigma in uses:  # as the Monte Carlo added them before: one row at a time
        by_row[row] += np.float32(sigma) * common[owner]
    grouped = start.copy()
    for at, owner, sigmas in _shared_passes(uses):
        grouped[at] += sigmas * common[owner]
    assert np.array_equal(grouped, by_row)
    assert len(_shared_passes(uses)) < len(uses)


def test_consecutive_rows_become_a_slice_and_others_stay_rows():
    assert _rows_at(np.array([4, 5, 6])) == slice(4, 7)
    assert np.array_equal(_rows_at(np.array([1, 3])), [1, 3])


def test_outcomes_written_in_place_are_the_passes_outcomes():
    evaluation = demo_evaluation()
    drawn = sampling.setup(evaluation, 11, Spreads(), None)
    samples = sampling.CHUNK + 100  # a full pass and a short one
    copied = [done for _, _, _, done in sampling.chunks(drawn, samples)]
    drawn = sampling.setup(evaluation, 11, Spreads(), None)  # the same streams from the start
    count = len(drawn.ids)
    into = Outcomes(*(np.empty((count, samples), np.float32) for _ in range(4)))
    for _ in sampling.chunks(drawn, samples, into=into):
        pass
    for field in ("cost", "wall_hours", "commitment", "finish_hours"):
        whole = np.concatenate([getattr(done, field) for done in copied], axis=1)
        assert np.array_equal(getattr(into, field), whole), field
    # The run itself: the same seed twice gives the same figures, and its cost band is the
    # percentiles of those very samples.
    first = run_monte_carlo(evaluation, samples, 11, precision=None)
    assert first == run_monte_carlo(evaluation, samples, 11, precision=None)
    p10, p50, p90 = np.percentile(into.cost[0].astype(float), [10, 50, 90])
    leader = first.bids[drawn.ids[0]]
    got = (leader.cost_p10, leader.cost_p50, leader.cost_p90)
    assert got == pytest.approx((p10, p50, p90), rel=1e-12)
