"""What every pass of the Monte Carlo draws from, set up once per scorecard: the bids that pass
the gates, their inputs as drawn, their calibrated arrays in float32 grouped into cache-sized
blocks of one billing kind, and one generator per stream (common random numbers, streams.py).
sampling.py draws the passes; its names are importable from there too."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from clusterbid.core.costmodel.estimate import BidEstimate
from clusterbid.core.costmodel.inputs import BidArrays, WorkloadScalars, deadline_hours
from clusterbid.core.costmodel.schedule_range import schedule_doubts
from clusterbid.core.costmodel.stack_efficiency import stated_model_mfu
from clusterbid.core.errors import InputError
from clusterbid.core.evaluation import Evaluation
from clusterbid.core.ranking import BidScore
from clusterbid.core.scoring import Scorecard
from clusterbid.core.uncertainty.delivery_slips import STREAM as SLIP_STREAM
from clusterbid.core.uncertainty.delivery_slips import SlipSpread, slip_spread
from clusterbid.core.uncertainty.model_inputs import model_inputs, select
from clusterbid.core.uncertainty.spreads import Spreads, UncertainInput, bid_inputs
from clusterbid.core.uncertainty.streams import seed_owner, stream
from clusterbid.core.uncertainty.term_ranges import TermRange, term_ranges
from clusterbid.core.workload import Workload

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
    at: slice | np.ndarray  # the same rows as a slice where they follow each other (a cheaper copy)
    base: BidArrays
    gens: dict[str, list[np.random.Generator]]
    log_median: dict[str, np.ndarray]
    sigma: dict[str, np.ndarray]
    # Per input, the common draws its rows add: (rows in the block, owner, their sigmas (rows, 1)).
    shared_passes: dict[str, list[tuple[slice | np.ndarray, str, np.ndarray]]]
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


def hours_to_deadline(evaluation: Evaluation, estimate: BidEstimate) -> float:
    """Wall-clock hours from the bid's start to the end of the deadline day (inf without either)."""
    workload = training_workload(evaluation)
    return deadline_hours(workload.plan, estimate.bid, workload.job_gpus)


def training_workload(evaluation: Evaluation) -> Workload:
    """The evaluation's training workload (serving draws its own bands, serving_montecarlo.py)."""
    if not isinstance(evaluation.workload, Workload):
        raise InputError("this Monte Carlo draws a training job; the evaluation serves inference")
    return evaluation.workload


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
    workload = training_workload(evaluation)
    inputs = model_inputs(evaluation, scorecard)
    passing = drawn_in_order(inputs.scorecard, only)
    if not passing:
        return None
    ids = [s.bid.id for s in passing]
    job = workload.job_gpus
    described = [
        bid_inputs(
            s.estimate,
            job,
            spreads,
            workload.precision,
            workload.software_stack,
            tuple(
                (knob, spreads.stack_spread_scale * sigma)
                for knob, sigma in schedule_doubts(
                    workload,
                    s.bid,
                    (s.estimate.interleave, s.estimate.micro_batch),
                    tuple(evaluation.bids),
                )
            ),
            stated_model_mfu(workload, inputs.workload.hardware_flops_ratio),
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
        # One generator per common stream, however many bids share it (the market's is shared by
        # every bid: building it once per bid was a third of the set-up at 50 bids).
        shared_gens={
            (n, owner): stream(seed, seed_owner(owner), n)
            for n, owner in dict.fromkeys(
                (n, owner) for n, uses in shared_use.items() for _, owner, _ in uses
            )
        },
        two_piece={
            (n, owner): (down / max(down, up), up / max(down, up))
            for k, n in enumerate(names)
            for d in described
            for owner, down, up in d[k].two_piece
        },
    )


def drawn_in_order(
    scorecard: Scorecard, only: tuple[str, ...] | None = None
) -> list[BidScore[BidEstimate]]:
    """The bids a Monte Carlo draws for `scorecard`: those past its gates, by its cost rank."""
    passing = (
        s for s in scorecard.scores if s.rank is not None and (only is None or s.bid.id in only)
    )
    return sorted(passing, key=lambda s: s.cost_rank if s.cost_rank is not None else 0)


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
    rows: np.ndarray,
    base: BidArrays,
    described: list[tuple[UncertainInput, ...]],
    gens: dict[str, list[np.random.Generator]],
    shared_use: dict[str, list[tuple[int, str, float]]],
    term_gens: list[list[tuple[TermRange, np.random.Generator]]],
    slip_gens: list[tuple[SlipSpread, np.random.Generator] | None],
) -> Block:
    names = list(COLUMNS)
    arrays = select(base, rows.tolist())

    def column(k: int, attr: str) -> np.ndarray:
        return np.array([[getattr(described[r][k], attr)] for r in rows], dtype=np.float32)

    local = {int(r): i for i, r in enumerate(rows)}
    return Block(
        rows=rows,
        at=_rows_at(rows),
        base=arrays.replace(
            **{f: _narrowed(getattr(arrays, f))[:, None] for f in arrays.__slots__}
        ),
        gens={n: [gens[n][r] for r in rows] for n in names},
        log_median={n: np.log(column(k, "median_factor")) for k, n in enumerate(names)},
        sigma={n: column(k, "sigma") for k, n in enumerate(names)},
        shared_passes={
            n: _shared_passes([(local[row], owner, sg) for row, owner, sg in uses if row in local])
            for n, uses in shared_use.items()
        },
        terms=[(i, term, gen) for i, r in enumerate(rows) for term, gen in term_gens[r]],
        slips=[(i, *slip_gens[r]) for i, r in enumerate(rows) if slip_gens[r] is not None],
    )


def _rows_at(rows: np.ndarray) -> slice | np.ndarray:
    """`rows` as a slice when they are consecutive, else as they are."""
    if len(rows) and rows[-1] - rows[0] == len(rows) - 1:
        return slice(int(rows[0]), int(rows[-1]) + 1)
    return rows


def _shared_passes(
    uses: list[tuple[int, str, float]],
) -> list[tuple[slice | np.ndarray, str, np.ndarray]]:
    """The common draws a block's rows add, one pass per (owner, k-th common draw of a row)
    instead of one per row and draw: every row still adds its own in the order bid_inputs lists
    them (float32 addition is not associative: the same order gives the same bits)."""
    groups: dict[tuple[int, str], tuple[list[int], list[float]]] = {}
    count: dict[int, int] = {}
    for row, owner, sigma in uses:
        k = count[row] = count.get(row, -1) + 1
        rows, sigmas = groups.setdefault((k, owner), ([], []))
        rows.append(row)
        sigmas.append(sigma)
    ordered = sorted(groups.items(), key=lambda item: item[0][0])  # stable: by k, then as met
    return [
        (_rows_at(np.asarray(rows)), owner, np.asarray(sigmas, dtype=np.float32)[:, None])
        for (_, owner), (rows, sigmas) in ordered
    ]


def _narrowed(column: np.ndarray) -> np.ndarray:
    """A float column in float32, the precision the cost model then runs the samples in
    (costmodel/real_arrays.py); flags stay as they are."""
    return column.astype(np.float32) if column.dtype.kind == "f" else column
