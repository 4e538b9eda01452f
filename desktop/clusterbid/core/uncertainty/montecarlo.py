"""Monte Carlo of the net plan cost, the commitment and the time to finish, vectorised over bids x samples, with common random
numbers (streams.py) and the spreads of spreads.py. Gated bids are left out."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from clusterbid.core.evaluation import Evaluation
from clusterbid.core.scoring import Scorecard
from clusterbid.core.uncertainty.sampling import CHUNK, COLUMNS, MAX_SAMPLES, checked, chunks, setup
from clusterbid.core.uncertainty.spreads import Spreads, UncertainInput
from clusterbid.core.sample_counts import DEFAULT_SAMPLES

__all__ = ["CHUNK", "COLUMNS", "MAX_SAMPLES", "BidUncertainty", "UncertaintyResult", "run_monte_carlo"]

# One sample count everywhere (score, the app's bands, the memo), so the same seed prints the same
# bands in each: 20,000 keeps a P10 within about 1% of its limit at a few hundred ms for 50 bids.

PERCENTILES = (10.0, 50.0, 90.0)


@dataclass(frozen=True, slots=True)
class BidUncertainty:
    """One bid's spread of outcomes across the samples (evaluation currency, hours)."""

    bid_id: str
    cost_p10: float
    cost_p50: float
    cost_p90: float
    hours_p10: float
    hours_p50: float
    hours_p90: float
    commitment_p10: float  # the total the contract commits to (fixed for a term, usage on demand)
    commitment_p50: float
    commitment_p90: float
    win_probability: float  # share of samples in which it is the cheapest finished work
    beats_leader: float  # share of samples in which it costs less than the score's first-ranked bid
    rank_stability: float  # share of samples in which it keeps its point-estimate cost rank
    point_cost_rank: int  # its cost rank in the scorecard the draws were set up from
    inputs: tuple[UncertainInput, ...]
    cost_mean: float = float("nan")  # expected net plan cost (issue 31: what ranks by default)
    # Share of samples at or below the point estimate's net plan cost: how optimistic the point
    # figure is (0.5 = the median; a serving fleet's point can be its own P10).
    point_percentile: float = float("nan")
    # Issue 31: the share of samples in which the job finishes by the plan's deadline (nan: none).
    on_time_probability: float = float("nan")

    def decision_cost(self, basis: str) -> float:
        """The figure the decision rule ranks on: the mean ('expected') or the median ('p50')."""
        return self.cost_mean if basis == "expected" else self.cost_p50


@dataclass(frozen=True, slots=True)
class UncertaintyResult:
    seed: int
    samples: int
    bids: dict[str, BidUncertainty]  # bids that pass the gates, cheapest point estimate first


def run_monte_carlo(
    evaluation: Evaluation,
    samples: int = DEFAULT_SAMPLES,
    seed: int | None = None,
    *,
    spreads: Spreads | None = None,
    scorecard: Scorecard | None = None,
) -> UncertaintyResult:
    """P10/P50/P90 of cost and hours to finish, win probability and rank stability per bid."""
    seed = checked(evaluation, samples, seed)
    drawn = setup(evaluation, seed, spreads or Spreads(), scorecard)
    if drawn is None:
        return UncertaintyResult(seed, samples, {})
    ids, described = drawn.ids, drawn.described
    count = len(ids)
    cost = np.empty((count, samples), dtype=np.float32)
    hours = np.empty((count, samples), dtype=np.float32)
    commitment = np.empty((count, samples), dtype=np.float32)
    wins = np.zeros(count, dtype=np.int64)
    kept_rank = np.zeros(count, dtype=np.int64)
    beats = np.zeros(count, dtype=np.int64)
    total = np.zeros(count, dtype=np.float64)
    at_or_below_point = np.zeros(count, dtype=np.int64)
    # A few float32 steps of slack: a sample that equals the point (a term's floor, converted at an
    # exchange rate) rounds a step above it and was counted as above: a EUR memo printed "P0".
    point = (np.asarray(drawn.point_cost, dtype=np.float64) * (1 + 1e-6)).astype(np.float32)[:, None]
    budget = np.asarray(drawn.hours_to_deadline, dtype=np.float64)[:, None]
    on_time = np.zeros(count, dtype=np.int64)
    leader = ids.index(drawn.leader)  # the model's recommendation
    point_rank = np.arange(count)[:, None]  # ids are in point-estimate cost order
    for start, n, _, done in chunks(drawn, samples):
        c = done.cost
        cost[:, start : start + n] = c
        hours[:, start : start + n] = done.wall_hours
        commitment[:, start : start + n] = done.contract.commitment
        # order[r] is the bid at cost rank r in each sample: a bid keeps its rank when it is
        # itself at its point-estimate position. Exact ties (zero spread only) break arbitrarily.
        order = np.argsort(np.broadcast_to(c, (count, n)), axis=0)
        wins += np.bincount(order[0], minlength=count)
        kept_rank += np.count_nonzero(order == point_rank, axis=1)
        beats += np.count_nonzero(c < c[leader], axis=1)
        total += np.broadcast_to(c, (count, n)).sum(axis=1, dtype=np.float64)
        at_or_below_point += np.count_nonzero(np.broadcast_to(c, (count, n)) <= point, axis=1)
        on_time += np.count_nonzero(np.broadcast_to(done.wall_hours, (count, n)) < budget, axis=1)

    cost_q = _percentiles(cost)
    hours_q = _percentiles(hours)
    commitment_q = _percentiles(commitment)
    results = {}
    for i, bid_id in enumerate(ids):
        results[bid_id] = BidUncertainty(
            bid_id,
            *(float(v) for v in cost_q[:, i]),
            *(float(v) for v in hours_q[:, i]),
            *(float(v) for v in commitment_q[:, i]),
            win_probability=float(wins[i] / samples),
            beats_leader=float(beats[i] / samples),
            rank_stability=float(kept_rank[i] / samples),
            point_cost_rank=i + 1,
            inputs=described[i],
            cost_mean=float(total[i] / samples),
            point_percentile=float(at_or_below_point[i] / samples),
            on_time_probability=(float(on_time[i] / samples) if np.isfinite(budget[i, 0]) else float("nan")),
        )
    return UncertaintyResult(seed, samples, results)


def _percentiles(values: np.ndarray) -> np.ndarray:
    """P10/P50/P90 along the samples axis, numpy's default (linear) definition. Sorts in place:
    a vectorised sort of each row is faster here than the partitions np.percentile runs."""
    values.sort(axis=1)
    position = np.asarray(PERCENTILES) / 100.0 * (values.shape[1] - 1)
    below = np.floor(position).astype(int)
    above = np.minimum(below + 1, values.shape[1] - 1)
    weight = (position - below)[:, None]
    low, high = values[:, below].T.astype(float), values[:, above].T.astype(float)
    return low + (high - low) * weight
