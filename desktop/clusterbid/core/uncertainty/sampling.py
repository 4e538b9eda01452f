"""The Monte Carlo's draws, written once: run_monte_carlo summarises them chunk by chunk, and
value_of_information keeps them whole. Common random numbers: every bid and input has its own
stream (streams.py), so the same seed gives the same draws to both. What the passes draw from is
set up once (draw_setup.py)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

import numpy as np

from clusterbid.core.costmodel.inputs import BidArrays
from clusterbid.core.evaluation import Evaluation
from clusterbid.core.sample_counts import DEFAULT_SAMPLES
from clusterbid.core.scoring import Scorecard
from clusterbid.core.uncertainty.delivery_slips import draw_slip_hours
from clusterbid.core.uncertainty.draw_setup import (
    CHUNK,
    COLUMNS,
    MAX_SAMPLES,
    MIN_UPTIME,
    Block,
    Outcomes,
    Setup,
    checked,
    setup,
)
from clusterbid.core.uncertainty.model_inputs import outcomes
from clusterbid.core.uncertainty.spreads import MAX_MFU, Spreads, UncertainInput
from clusterbid.core.uncertainty.term_ranges import TermRange, draw_many

__all__ = ["CHUNK", "COLUMNS", "MAX_SAMPLES", "Setup", "checked", "setup"]
__all__ += ["PlanSamples", "chunks", "drawn_arrays", "sample_plan_costs"]


def chunks(
    s: Setup,
    samples: int,
    keep_factors: bool = False,
    into: Outcomes | None = None,
    between_blocks: Callable[[], None] | None = None,
) -> Iterator[tuple[int, int, dict[str, np.ndarray], Outcomes]]:
    """(first sample, count, the multiplier drawn per input as (bids, count) when `keep_factors`,
    else {}, the model's outcomes). The cost model runs block by block on cache-sized arrays.
    `into`: (bids, samples) arrays the outcomes are written in (the pass's are views of them),
    its finish hours the very array of its wall-clock hours when no bid's handover slips.
    `between_blocks` is called before each block (a cancelled run raises there: a pass at 500
    bids is about half a CPU second)."""
    count = len(s.ids)
    finish_is_wall = into is not None and into.finish_hours is into.wall_hours
    for start in range(0, samples, CHUNK):
        n = min(CHUNK, samples - start)
        common = _common_draws(s, n)
        kept = (
            {name: np.empty((count, n), dtype=np.float32) for name in COLUMNS}
            if keep_factors
            else {}
        )
        out = (
            Outcomes(*(np.empty((count, n), dtype=np.float32) for _ in range(4)))
            if into is None
            else Outcomes(*(a[:, start : start + n] for a in _fields(into)))
        )
        for block in s.blocks:
            if between_blocks is not None:
                between_blocks()
            factors = _factors(block, n, common)
            arrays = _drawn_arrays(block, factors, n)
            done = outcomes(s.workload, arrays)
            out.cost[block.at] = done.cost
            out.wall_hours[block.at] = done.wall_hours
            # Without a slip drawn in the block the finish is the wall-clock hours (slip 0).
            if not finish_is_wall:
                out.finish_hours[block.at] = (
                    done.wall_hours + arrays.slip_hours if block.slips else done.wall_hours
                )
            out.commitment[block.at] = done.contract.commitment
            for name, f in kept.items():
                f[block.at] = factors[name]
        yield start, n, kept, out


def drawn_arrays(s: Setup, samples: int) -> Iterator[tuple[int, dict[str, BidArrays]]]:
    """(count, bid id -> its arrays as drawn, columns of shape (count,) or (1,)) per pass: the
    inputs chunks() runs the cost model on, for analyses that re-run it on mixtures of bids."""
    for start in range(0, samples, CHUNK):
        n = min(CHUNK, samples - start)
        common = _common_draws(s, n)
        found: dict[str, BidArrays] = {}
        for block in s.blocks:
            arrays = _drawn_arrays(block, _factors(block, n, common), n)
            for local, row in enumerate(block.rows):
                found[s.ids[row]] = arrays.replace(
                    **{f: getattr(arrays, f)[local] for f in arrays.__slots__}
                )
        yield n, found


def _fields(o: Outcomes) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    return o.cost, o.wall_hours, o.commitment, o.finish_hours


def _common_draws(s: Setup, n: int) -> dict[tuple[str, str], np.ndarray]:
    """The next n draws of every common stream; a two-piece stream's negative and positive draws
    scaled apart, so its sigma reaches each side's own end."""
    common = {}
    for key, gen in s.shared_gens.items():
        z = gen.standard_normal(n, dtype=np.float32)
        if key in s.two_piece:
            down, up = s.two_piece[key]
            z = np.where(z < 0, z * np.float32(down), z * np.float32(up))
        common[key] = z
    return common


def _factors(
    block: Block, n: int, common: dict[tuple[str, str], np.ndarray]
) -> dict[str, np.ndarray]:
    """Each input's multiplier for the block's bids: median x exp(own sigma z + shared draws)."""
    factors = {}
    for name in COLUMNS:
        z = np.empty((len(block.rows), n), dtype=np.float32)
        for row, gen in enumerate(block.gens[name]):
            gen.standard_normal(dtype=np.float32, out=z[row])
        z *= block.sigma[name]
        z += block.log_median[name]
        for at, owner, sigmas in block.shared_passes[name]:
            z[at] += sigmas * common[name, owner]
        factors[name] = np.exp(z, out=z)
    return factors


def _drawn_arrays(block: Block, factors: dict[str, np.ndarray], n: int) -> BidArrays:
    """The block's arrays with each uncertain column multiplied by its draws (MFU capped, uptime
    drawn through its downtime) and its unwritten terms drawn across their ranges."""
    base = block.base
    drawn = {COLUMNS[name]: getattr(base, COLUMNS[name]) * f for name, f in factors.items()}
    # Terms of one column drawn together: each row's uniforms from its own stream, in the same
    # order, then the triangular inverse once over the rows (one call per bid and term before).
    by_column: dict[str, list[tuple[int, TermRange, np.random.Generator]]] = {}
    for row, term, gen in block.terms:
        by_column.setdefault(term.column, []).append((row, term, gen))
    for column, terms in by_column.items():
        rows = [row for row, _, _ in terms]
        low, likely, high, units = (
            np.array([[getattr(t, k)] for _, t, _ in terms], dtype=float)
            for k in ("low", "likely", "high", "units")
        )
        uniforms = np.empty((len(terms), n))
        for k, (_, _, gen) in enumerate(terms):
            gen.random(out=uniforms[k])
        if column not in drawn and rows == list(range(len(block.rows))):
            # Every row drawn: the draws as `draw` makes them, then in the samples' precision.
            drawn[column] = draw_many(uniforms, low, likely, high, units).astype(np.float32)
            continue
        if column not in drawn:  # (bids, samples): the block's point figures, then each draw
            drawn[column] = np.repeat(getattr(base, column), n, axis=1)
        drawn[column][rows] = draw_many(uniforms, low, likely, high, units)
    if block.slips:  # issue 39: the job's block handed over late (bids without a schedule: 0)
        drawn["slip_hours"] = np.repeat(base.slip_hours, n, axis=1)
        for row, spread, gen in block.slips:
            drawn["slip_hours"][row] = draw_slip_hours(gen, spread, n)
    drawn["baseline_mfu"] = np.minimum(drawn["baseline_mfu"], MAX_MFU)
    # np.clip's result, in place on one temporary (np.clip passes over it more than twice).
    uptime = (1.0 - base.uptime) * factors["uptime"]
    np.subtract(1.0, uptime, out=uptime)
    drawn["uptime"] = np.maximum(np.minimum(uptime, 1.0, out=uptime), MIN_UPTIME, out=uptime)
    return base.replace(**drawn)


@dataclass(frozen=True, slots=True)
class PlanSamples:
    """Every sample kept: net plan cost and each input's multiplier, both (bids, samples)."""

    seed: int
    ids: tuple[str, ...]  # cheapest point estimate first
    inputs: tuple[tuple[UncertainInput, ...], ...]  # per bid, as spreads.bid_inputs describes them
    cost: np.ndarray  # evaluation currency
    factors: dict[str, np.ndarray]  # input name -> the multiplier drawn on the bid's figure


def sample_plan_costs(
    evaluation: Evaluation,
    samples: int = DEFAULT_SAMPLES,
    seed: int | None = None,
    *,
    spreads: Spreads | None = None,
    scorecard: Scorecard | None = None,
    between_passes: Callable[[], None] | None = None,
) -> PlanSamples:
    """The same draws as run_monte_carlo with the same seed, kept whole. `between_passes` is called
    before each pass of CHUNK samples (the app's worker stops there when a newer edit comes)."""
    seed = checked(evaluation, samples, seed)
    s = setup(evaluation, seed, spreads or Spreads(), scorecard)
    if s is None:
        return PlanSamples(
            seed,
            (),
            (),
            np.empty((0, samples), np.float32),
            {n: np.empty((0, samples)) for n in COLUMNS},
        )
    cost = np.empty((len(s.ids), samples), dtype=np.float32)
    factors = {n: np.empty((len(s.ids), samples), dtype=np.float32) for n in COLUMNS}
    for start, n, drawn, done in chunks(s, samples, keep_factors=True):
        if between_passes is not None:
            between_passes()
        cost[:, start : start + n] = done.cost
        for name, f in drawn.items():
            factors[name][:, start : start + n] = f
    return PlanSamples(seed, tuple(s.ids), tuple(s.described), cost, factors)
