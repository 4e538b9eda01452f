"""The Monte Carlo's draws, written once: run_monte_carlo summarises them chunk by chunk, and
value_of_information keeps them whole. Common random numbers: every bid and input has its own
stream (streams.py), so the same seed gives the same draws to both."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

import numpy as np

from clusterbid.core.costmodel.inputs import BidArrays, WorkloadScalars, deadline_hours
from clusterbid.core.costmodel.schedule_range import schedule_doubts
from clusterbid.core.costmodel.stack_efficiency import stated_model_mfu
from clusterbid.core.errors import InputError
from clusterbid.core.evaluation import Evaluation
from clusterbid.core.sample_counts import DEFAULT_SAMPLES
from clusterbid.core.scoring import Scorecard
from clusterbid.core.uncertainty.delivery_slips import STREAM as SLIP_STREAM
from clusterbid.core.uncertainty.delivery_slips import SlipSpread, draw_slip_hours, slip_spread
from clusterbid.core.uncertainty.model_inputs import model_inputs, outcomes, select
from clusterbid.core.uncertainty.spreads import MAX_MFU, Spreads, UncertainInput, bid_inputs
from clusterbid.core.uncertainty.streams import stream
from clusterbid.core.uncertainty.term_ranges import TermRange, draw_many, term_ranges

# Samples drawn per pass from each stream (the sequence of a stream does not depend on it), and
# the cells (bids x samples) the cost model works on at once: 16 bids x 4,096 samples keep each of
# its float32 temporaries at 256 KB, inside a core's cache, where all the bids at once (50 bids:
# 0.8 MB each, 1,000 bids: 16 MB) ran from memory and held 2.4 GB at 1,000 bids. Draws and the
# cost model's samples are float32 (issue 32; costmodel/real_arrays.py says why it is enough).
CHUNK = 4096
BLOCK_CELLS = 65_536
MAX_SAMPLES = 10_000_000
# Which BidArrays column each uncertain input multiplies.
COLUMNS = {
    "busbw": "node_busbw_gb_s",
    "baseline_mfu": "baseline_mfu",
    "failure_rate": "failures_per_gpu_hour",
    "replacement_hours": "node_replacement_hours",
    "uptime": "uptime",
}
# The uptime factor multiplies the downtime (1 - uptime); no draw of it goes below this uptime.
MIN_UPTIME = 0.5


@dataclass(frozen=True, slots=True)
class Block:
    """Bids the cost model runs together: one billing kind (so the contract bills one kind),
    at most BLOCK_CELLS // CHUNK of them. Arrays are (bids of the block, 1)."""

    rows: np.ndarray  # their rows in Setup.ids
    base: BidArrays
    gens: dict[str, list[np.random.Generator]]
    log_median: dict[str, np.ndarray]
    sigma: dict[str, np.ndarray]
    shared_use: dict[str, list[tuple[int, str, float]]]  # (row in the block, owner, sigma)
    terms: list[tuple[int, TermRange, np.random.Generator]]  # (row in the block, term, its stream)
    slips: list[
        tuple[int, SlipSpread, np.random.Generator]
    ]  # issue 39: (row in the block, spread, stream)


@dataclass(frozen=True, slots=True)
class Outcomes:
    """One pass's outcomes, (bids, samples of the pass) float32, bids in Setup.ids order."""

    cost: np.ndarray  # net plan cost, evaluation currency
    wall_hours: np.ndarray
    commitment: np.ndarray
    finish_hours: (
        np.ndarray
    )  # issue 39: from the stated start to the job's end, the handover's slip included


@dataclass(frozen=True, slots=True)
class Setup:
    """What every chunk needs: bids that pass the gates (cheapest point estimate first), their
    inputs as drawn, the calibrated arrays as (bids, 1) columns and one generator per stream."""

    ids: list[str]
    point_cost: list[float]  # each bid's net plan cost in the point estimate
    # Hours each bid may run and still finish by the plan's deadline (inf: no deadline or no start):
    # the job finishes on time when start + hours falls before the day after the deadline.
    hours_to_deadline: list[float]
    leader: str  # the scorecard's first-ranked bid (the model's recommendation)
    described: list[tuple[UncertainInput, ...]]
    terms: list[tuple[TermRange, ...]]  # per bid, the commercial terms drawn across a range
    workload: WorkloadScalars
    blocks: list[Block]
    # Common draws: one stream per (input, owner) whatever bids use it (same GPU type, same fabric
    # kind, the market), so a bid's samples depend on its own figures only.
    shared_gens: dict[tuple[str, str], np.random.Generator]
    # Streams drawn in two pieces: (input, owner) -> (down, up) over the stream's sigma, the
    # scale of a negative and of a positive draw (an unstated stack's reach, spreads.py).
    two_piece: dict[tuple[str, str], tuple[float, float]]


def hours_to_deadline(evaluation: Evaluation, estimate) -> float:
    """Wall-clock hours from the bid's start to the end of the deadline day (inf without either)."""
    return deadline_hours(evaluation.workload.plan, estimate.bid, evaluation.workload.job_gpus)


def checked(evaluation: Evaluation, samples: object, seed: object) -> int:
    """The seed to use (the policy's when None); refuses a bad sample count or seed."""
    if not isinstance(samples, int) or not 1 <= samples <= MAX_SAMPLES:
        raise InputError(
            f"samples must be a whole number from 1 to {MAX_SAMPLES:,}, not {samples!r}"
        )
    seed = evaluation.policy.random_seed if seed is None else seed
    if not isinstance(seed, int) or seed < 0:
        raise InputError(f"seed must be a whole number >= 0, not {seed!r}")
    return seed


def setup(
    evaluation: Evaluation,
    seed: int,
    spreads: Spreads,
    scorecard: Scorecard | None,
    only: tuple[str, ...] | None = None,
) -> Setup | None:
    """None when no bid passes the gates (nothing to sample). `only`: these bids alone; each bid's
    draws come from its own streams, so they are the draws the whole set gives it."""
    inputs = model_inputs(evaluation, scorecard)
    passing = sorted(
        (
            s
            for s in inputs.scorecard.scores
            if s.rank is not None and (only is None or s.bid.id in only)
        ),
        key=lambda s: s.cost_rank,
    )
    if not passing:
        return None
    ids = [s.bid.id for s in passing]
    job = evaluation.workload.job_gpus
    described = [
        bid_inputs(
            s.estimate,
            job,
            spreads,
            evaluation.workload.precision,
            evaluation.workload.software_stack,
            tuple(
                (knob, spreads.stack_spread_scale * sigma)
                for knob, sigma in schedule_doubts(
                    evaluation.workload,
                    s.bid,
                    (s.estimate.interleave, s.estimate.micro_batch),
                    tuple(evaluation.bids),
                )
            ),
            stated_model_mfu(evaluation.workload, inputs.workload.hardware_flops_ratio),
        )
        for s in passing
    ]
    base = select(inputs.arrays, [inputs.ids.index(i) for i in ids])
    names = list(COLUMNS)
    gens = {n: [stream(seed, bid_id, n) for bid_id in ids] for n in names}
    terms = [term_ranges(s.bid, spreads.term_ranges) for s in passing]
    term_gens = [
        [(t, stream(seed, bid_id, t.stream_name)) for t in drawn]
        for bid_id, drawn in zip(ids, terms)
    ]
    spreads_late = [slip_spread(s.bid) for s in passing]
    slip_gens = [
        None if sp is None else (sp, stream(seed, bid_id, SLIP_STREAM))
        for bid_id, sp in zip(ids, spreads_late)
    ]
    shared_use = {
        n: [
            (row, owner, sg) for row, d in enumerate(described) for owner, sg in d[k].shared_streams
        ]
        for k, n in enumerate(names)
    }
    return Setup(
        ids=ids,
        point_cost=[s.estimate.plan_cost for s in passing],
        hours_to_deadline=[hours_to_deadline(evaluation, s.estimate) for s in passing],
        leader=inputs.scorecard.ranked[0].bid.id,
        described=described,
        terms=terms,
        workload=inputs.workload,
        blocks=[
            _block(rows, base, described, gens, shared_use, term_gens, slip_gens)
            for rows in _block_rows(
                base, [bool(t) or g is not None for t, g in zip(terms, slip_gens)]
            )
        ],
        shared_gens={
            (n, owner): stream(seed, owner, n)
            for n, uses in shared_use.items()
            for _, owner, _ in uses
        },
        two_piece={
            (n, owner): (down / max(down, up), up / max(down, up))
            for k, n in enumerate(names)
            for d in described
            for owner, down, up in d[k].two_piece
        },
    )


def _block_rows(base: BidArrays, draws_terms: list[bool]) -> list[np.ndarray]:
    """Rows grouped by billing kind, exit clause and whether terms are drawn (the contract then
    bills one way per block), in order, cut to BLOCK_CELLS // CHUNK."""
    size = max(1, BLOCK_CELLS // CHUNK)
    key = base.billing_kind * 4 + base.exit_allowed * 2 + np.asarray(draws_terms, dtype=float)
    blocks = []
    for value in dict.fromkeys(key.tolist()):
        rows = np.flatnonzero(key == value)
        blocks += [rows[i : i + size] for i in range(0, len(rows), size)]
    return blocks


def _block(
    rows: np.ndarray, base: BidArrays, described, gens, shared_use, term_gens, slip_gens
) -> Block:
    names = list(COLUMNS)
    arrays = select(base, rows.tolist())

    def column(k, attr):
        return np.array([[getattr(described[r][k], attr)] for r in rows], dtype=np.float32)

    local = {int(r): i for i, r in enumerate(rows)}
    return Block(
        rows=rows,
        base=arrays.replace(
            **{f: _narrowed(getattr(arrays, f))[:, None] for f in arrays.__slots__}
        ),
        gens={n: [gens[n][r] for r in rows] for n in names},
        log_median={n: np.log(column(k, "median_factor")) for k, n in enumerate(names)},
        sigma={n: column(k, "sigma") for k, n in enumerate(names)},
        shared_use={
            n: [(local[row], owner, sg) for row, owner, sg in uses if row in local]
            for n, uses in shared_use.items()
        },
        terms=[(i, term, gen) for i, r in enumerate(rows) for term, gen in term_gens[r]],
        slips=[(i, *slip_gens[r]) for i, r in enumerate(rows) if slip_gens[r] is not None],
    )


def _narrowed(column: np.ndarray) -> np.ndarray:
    """A float column in float32, the precision the cost model then runs the samples in
    (costmodel/real_arrays.py); flags stay as they are."""
    return column.astype(np.float32) if column.dtype.kind == "f" else column


def chunks(
    s: Setup, samples: int, keep_factors: bool = False
) -> Iterator[tuple[int, int, dict[str, np.ndarray], Outcomes]]:
    """(first sample, count, the multiplier drawn per input as (bids, count) when `keep_factors`,
    else {}, the model's outcomes). The cost model runs block by block on cache-sized arrays."""
    count = len(s.ids)
    for start in range(0, samples, CHUNK):
        n = min(CHUNK, samples - start)
        common = _common_draws(s, n)
        kept = (
            {name: np.empty((count, n), dtype=np.float32) for name in COLUMNS}
            if keep_factors
            else {}
        )
        out = Outcomes(*(np.empty((count, n), dtype=np.float32) for _ in range(4)))
        for block in s.blocks:
            factors = _factors(block, n, common)
            arrays = _drawn_arrays(block, factors, n)
            done = outcomes(s.workload, arrays)
            out.cost[block.rows] = done.cost
            out.wall_hours[block.rows] = done.wall_hours
            # Without a slip drawn in the block the finish is the wall-clock hours (slip 0).
            out.finish_hours[block.rows] = (
                done.wall_hours + arrays.slip_hours if block.slips else done.wall_hours
            )
            out.commitment[block.rows] = done.contract.commitment
            for name, f in kept.items():
                f[block.rows] = factors[name]
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
        for row, owner, sigma in block.shared_use[name]:
            z[row] += np.float32(sigma) * common[name, owner]
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
    drawn["uptime"] = np.clip(1.0 - (1.0 - base.uptime) * factors["uptime"], MIN_UPTIME, 1.0)
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
