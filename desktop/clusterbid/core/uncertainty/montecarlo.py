"""Monte Carlo of the net plan cost, the commitment and the time to finish, vectorised over
bids x samples, with common random numbers (streams.py) and the spreads of spreads.py. Gated bids
are left out."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from clusterbid.core.evaluation import Evaluation
from clusterbid.core.sample_counts import DEFAULT_SAMPLES
from clusterbid.core.scoring import Scorecard
from clusterbid.core.uncertainty.draw_setup import Setup
from clusterbid.core.uncertainty.kept_outcomes import KeptOutcomes, PassOutcomes
from clusterbid.core.uncertainty.order_statistics import percentiles
from clusterbid.core.uncertainty.sampling import CHUNK, COLUMNS, MAX_SAMPLES, checked, setup
from clusterbid.core.uncertainty.spreads import Spreads, UncertainInput
from clusterbid.core.uncertainty.term_ranges import TermRange

__all__ = [
    "CHUNK",
    "COLUMNS",
    "MAX_SAMPLES",
    "BidUncertainty",
    "UncertaintyResult",
    "monte_carlo_kept",
    "percentiles",
    "run_monte_carlo",
    "tallied",
]

# One sample cap everywhere (score, the app's bands, the memo), so the same seed prints the same
# bands in each; the precision rule below usually stops sooner (methodology section 7).

# Adaptive sample count (issue 32): stop once every bid's chance of being cheapest is known to
# +/- 1 point at 95% confidence (z = 1.96). At a 50% chance that takes about 9,600 samples.
WIN_PRECISION = 0.01
WIN_Z = 1.959964


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
    # Issue 31: the commercial terms nobody put in writing, drawn across their ranges.
    term_ranges: tuple[TermRange, ...] = ()
    # Issue 39: hours from the stated start to the job's end, a late handover of its block included
    # (equal to the wall-clock hours for a bid without a delivery schedule).
    finish_hours_p50: float = float("nan")
    finish_hours_p90: float = float("nan")

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
    precision: float | None = WIN_PRECISION,
    checkpoint: Callable[[], None] | None = None,
) -> UncertaintyResult:
    """P10/P50/P90 of cost and hours to finish, win probability and rank stability per bid.

    `samples` is the most drawn: with a `precision`, drawing stops at the end of the first pass
    of CHUNK samples where every bid's chance of being cheapest is known to +/- that (95%
    confidence); None draws exactly `samples`. The stop depends on the draws only, so a seed
    gives the same count and the same figures at every door. `checkpoint` is called before
    each block of bids of each pass (the app's worker raises there when a newer edit comes)."""
    return monte_carlo_kept(
        evaluation,
        samples,
        seed,
        spreads=spreads,
        scorecard=scorecard,
        precision=precision,
        checkpoint=checkpoint,
    )[0]


def monte_carlo_kept(
    evaluation: Evaluation,
    samples: int = DEFAULT_SAMPLES,
    seed: int | None = None,
    *,
    spreads: Spreads | None = None,
    scorecard: Scorecard | None = None,
    precision: float | None = WIN_PRECISION,
    checkpoint: Callable[[], None] | None = None,
) -> tuple[UncertaintyResult, KeptOutcomes | None]:
    """run_monte_carlo's result and the outcomes behind it, intact (the percentiles only read
    them), for another ranking to be tallied on (`tallied`); None when no bid passes the gates."""
    seed = checked(evaluation, samples, seed)
    drawn = setup(evaluation, seed, spreads or Spreads(), scorecard)
    if drawn is None:
        return UncertaintyResult(seed, samples, {}), None
    if checkpoint is not None:  # issue 32: the set-up (its streams) is the run's first ~0.1 s
        checkpoint()
    kept = KeptOutcomes(drawn, samples, checkpoint)
    return tallied(kept, seed, None, drawn.leader, precision), kept


def tallied(
    kept: KeptOutcomes,
    seed: int,
    rows: list[int] | None,
    leader: str,
    precision: float | None,
) -> UncertaintyResult:
    """The result of the kept draws for the bids at `rows` of the set-up, ranked in that order
    (None: all, in set-up order) against `leader`, with the stop rule applied to their wins:
    what a run set up from that ranking gives, sample for sample. The kept arrays are left
    intact for another tally."""
    drawn = kept.setup
    order = list(range(len(drawn.ids))) if rows is None else rows
    ids = [drawn.ids[r] for r in order]
    tally = _Tally(len(ids), drawn, order)
    taken = 0
    for start in range(0, kept.samples, CHUNK):
        n = min(CHUNK, kept.samples - start)
        tally.add(kept.pass_of(rows, start, n), ids.index(leader))
        taken = start + n
        if precision is not None and win_known_within(tally.wins, taken, precision):
            break

    cost_q = percentiles(kept.cost[:, :taken], rows)
    hours_q = percentiles(kept.hours[:, :taken], rows)
    commitment_q = percentiles(kept.commitment[:, :taken], rows)
    finish_q = percentiles(kept.finish_hours[:, :taken], rows) if kept.late else hours_q
    budget = tally.budget
    results = {}
    for i, (bid_id, row) in enumerate(zip(ids, order)):
        results[bid_id] = BidUncertainty(
            bid_id,
            *(float(v) for v in cost_q[:, i]),
            *(float(v) for v in hours_q[:, i]),
            *(float(v) for v in commitment_q[:, i]),
            win_probability=float(tally.wins[i] / taken),
            beats_leader=float(tally.beats[i] / taken),
            rank_stability=float(tally.kept_rank[i] / taken),
            point_cost_rank=i + 1,
            inputs=drawn.described[row],
            cost_mean=float(tally.total[i] / taken),
            point_percentile=float(tally.at_or_below_point[i] / taken),
            on_time_probability=(
                float(tally.on_time[i] / taken) if np.isfinite(budget[i, 0]) else float("nan")
            ),
            term_ranges=drawn.terms[row],
            finish_hours_p50=float(finish_q[1, i]),
            finish_hours_p90=float(finish_q[2, i]),
        )
    return UncertaintyResult(seed, taken, results)


class _Tally:
    """Counts over the samples drawn so far, per bid (ids order: the point estimate's cost rank)."""

    def __init__(self, count: int, drawn: Setup, rows: list[int]) -> None:
        self.wins = np.zeros(count, dtype=np.int64)
        self.kept_rank = np.zeros(count, dtype=np.int64)
        self.beats = np.zeros(count, dtype=np.int64)
        self.total = np.zeros(count, dtype=np.float64)
        self.at_or_below_point = np.zeros(count, dtype=np.int64)
        self.on_time = np.zeros(count, dtype=np.int64)
        # A few float32 steps of slack: a sample that equals the point (a term's floor, converted at
        # an exchange rate) rounds a step above it and was counted as above: a EUR memo printed "P0".
        point = np.asarray(drawn.point_cost, dtype=np.float64)[rows]
        self.point = (point * (1 + 1e-6)).astype(np.float32)[:, None]
        self.budget = np.asarray(drawn.hours_to_deadline, dtype=np.float64)[rows][:, None]

    def add(self, done: PassOutcomes, leader: int) -> None:
        c = done.cost
        # The cheapest bid of each sample (the first in point order on an exact tie, zero spread
        # only); a bid keeps its rank when the sample's r-th lowest cost is its own. Sorting the
        # costs, not their indices, and along the contiguous axis, is what makes this cheap.
        ranked = np.ascontiguousarray(c.T)  # a sample's costs side by side: found, then sorted
        self.wins += np.bincount(ranked.argmin(axis=1), minlength=len(c))
        ranked.sort(axis=1)
        self.kept_rank += np.count_nonzero(c == ranked.T, axis=1)
        self.beats += np.count_nonzero(c < c[leader], axis=1)
        self.total += c.sum(axis=1, dtype=np.float64)
        self.at_or_below_point += np.count_nonzero(c <= self.point, axis=1)
        self.on_time += np.count_nonzero(done.finish_hours < self.budget, axis=1)


def win_known_within(wins: np.ndarray, samples: int, precision: float) -> bool:
    """Whether every bid's chance of being cheapest is known to +/- `precision` at 95%: the
    Agresti-Coull interval, which does not call a share of 0 or 1 seen so far certain."""
    z2 = WIN_Z * WIN_Z
    share = (wins + z2 / 2.0) / (samples + z2)
    half_width = WIN_Z * np.sqrt(share * (1.0 - share) / (samples + z2))
    return bool(np.all(half_width <= precision))
