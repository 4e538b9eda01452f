"""The Monte Carlo's draws, written once: run_monte_carlo summarises them chunk by chunk, and
value_of_information keeps them whole. Common random numbers: every bid and input has its own
stream (streams.py), so the same seed gives the same draws to both."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from clusterbid.core.costmodel.inputs import BidArrays, WorkloadScalars, deadline_hours
from clusterbid.core.costmodel.training import Finish
from clusterbid.core.errors import InputError
from clusterbid.core.evaluation import Evaluation
from clusterbid.core.scoring import Scorecard
from clusterbid.core.uncertainty.model_inputs import model_inputs, outcomes, select
from clusterbid.core.uncertainty.spreads import MAX_MFU, Spreads, UncertainInput, bid_inputs
from clusterbid.core.uncertainty.streams import stream
from clusterbid.core.sample_counts import DEFAULT_SAMPLES

# Samples per pass: bounds the temporaries of the cost model to a few MB per bid column while
# keeping numpy's per-call overhead small. Draws are float32 (a z-score needs no more).
CHUNK = 4096
MAX_SAMPLES = 10_000_000
# Which BidArrays column each uncertain input multiplies.
COLUMNS = {"busbw": "node_busbw_gb_s", "baseline_mfu": "baseline_mfu", "failure_rate": "failures_per_gpu_hour",
           "replacement_hours": "node_replacement_hours", "uptime": "uptime"}
# The uptime factor multiplies the downtime (1 - uptime); no draw of it goes below this uptime.
MIN_UPTIME = 0.5


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
    workload: WorkloadScalars
    base: BidArrays
    gens: dict[str, list[np.random.Generator]]
    log_median: dict[str, np.ndarray]
    sigma: dict[str, np.ndarray]
    # Common draws: (row, owner, sigma) per input, one stream per (input, owner) whatever bids use
    # it (same GPU type, same fabric kind, the market), so a bid's samples depend on its own figures.
    shared_use: dict[str, list[tuple[int, str, float]]]
    shared_gens: dict[tuple[str, str], np.random.Generator]


def hours_to_deadline(evaluation: Evaluation, estimate) -> float:
    """Wall-clock hours from the bid's start to the end of the deadline day (inf without either)."""
    return deadline_hours(evaluation.workload.plan, estimate.bid)


def checked(evaluation: Evaluation, samples: object, seed: object) -> int:
    """The seed to use (the policy's when None); refuses a bad sample count or seed."""
    if not isinstance(samples, int) or not 1 <= samples <= MAX_SAMPLES:
        raise InputError(f"samples must be a whole number from 1 to {MAX_SAMPLES:,}, not {samples!r}")
    seed = evaluation.policy.random_seed if seed is None else seed
    if not isinstance(seed, int) or seed < 0:
        raise InputError(f"seed must be a whole number >= 0, not {seed!r}")
    return seed


def setup(evaluation: Evaluation, seed: int, spreads: Spreads, scorecard: Scorecard | None) -> Setup | None:
    """None when no bid passes the gates (nothing to sample)."""
    inputs = model_inputs(evaluation, scorecard)
    passing = sorted((s for s in inputs.scorecard.scores if s.rank is not None), key=lambda s: s.cost_rank)
    if not passing:
        return None
    ids = [s.bid.id for s in passing]
    job = evaluation.workload.job_gpus
    described = [bid_inputs(s.estimate, job, spreads, evaluation.workload.precision) for s in passing]
    base = select(inputs.arrays, [inputs.ids.index(i) for i in ids])
    base = base.replace(**{f: getattr(base, f)[:, None] for f in base.__slots__})  # (bids, 1)
    names = list(COLUMNS)
    column = lambda k, attr: np.array([[getattr(d[k], attr)] for d in described], dtype=np.float32)  # noqa: E731
    shared_use = {n: [(row, owner, sg) for row, d in enumerate(described) for owner, sg in d[k].shared_streams]
                  for k, n in enumerate(names)}
    return Setup(
        ids=ids,
        point_cost=[s.estimate.plan_cost for s in passing],
        hours_to_deadline=[hours_to_deadline(evaluation, s.estimate) for s in passing],
        leader=inputs.scorecard.ranked[0].bid.id,
        described=described,
        workload=inputs.workload,
        base=base,
        gens={n: [stream(seed, bid_id, n) for bid_id in ids] for n in names},
        log_median={n: np.log(column(k, "median_factor")) for k, n in enumerate(names)},
        sigma={n: column(k, "sigma") for k, n in enumerate(names)},
        shared_use=shared_use,
        shared_gens={(n, owner): stream(seed, owner, n) for n, uses in shared_use.items() for _, owner, _ in uses},
    )


def chunks(s: Setup, samples: int) -> Iterator[tuple[int, int, dict[str, np.ndarray], Finish]]:
    """(first sample, count, multiplier drawn per input as (bids, count), the model's outcomes)."""
    count = len(s.ids)
    for start in range(0, samples, CHUNK):
        n = min(CHUNK, samples - start)
        factors = {}
        for name in COLUMNS:
            z = np.empty((count, n), dtype=np.float32)
            for row, gen in enumerate(s.gens[name]):
                gen.standard_normal(dtype=np.float32, out=z[row])
            z *= s.sigma[name]
            z += s.log_median[name]
            common = {owner: s.shared_gens[name, owner].standard_normal(n, dtype=np.float32)
                      for owner in dict.fromkeys(owner for _, owner, _ in s.shared_use[name])}
            for row, owner, sigma in s.shared_use[name]:
                z[row] += np.float32(sigma) * common[owner]
            factors[name] = np.exp(z, out=z)
        drawn = {COLUMNS[name]: getattr(s.base, COLUMNS[name]) * f for name, f in factors.items()}
        drawn["baseline_mfu"] = np.minimum(drawn["baseline_mfu"], MAX_MFU)
        drawn["uptime"] = np.clip(1.0 - (1.0 - s.base.uptime) * factors["uptime"], MIN_UPTIME, 1.0)
        yield start, n, factors, outcomes(s.workload, s.base.replace(**drawn))


@dataclass(frozen=True, slots=True)
class PlanSamples:
    """Every sample kept: net plan cost and each input's multiplier, both (bids, samples)."""

    seed: int
    ids: tuple[str, ...]  # cheapest point estimate first
    inputs: tuple[tuple[UncertainInput, ...], ...]  # per bid, as spreads.bid_inputs describes them
    cost: np.ndarray  # evaluation currency
    factors: dict[str, np.ndarray]  # input name -> the multiplier drawn on the bid's figure


def sample_plan_costs(evaluation: Evaluation, samples: int = DEFAULT_SAMPLES, seed: int | None = None, *,
                      spreads: Spreads | None = None, scorecard: Scorecard | None = None) -> PlanSamples:
    """The same draws as run_monte_carlo with the same seed, kept whole."""
    seed = checked(evaluation, samples, seed)
    s = setup(evaluation, seed, spreads or Spreads(), scorecard)
    if s is None:
        return PlanSamples(seed, (), (), np.empty((0, samples), np.float32), {n: np.empty((0, samples)) for n in COLUMNS})
    cost = np.empty((len(s.ids), samples), dtype=np.float32)
    factors = {n: np.empty((len(s.ids), samples), dtype=np.float32) for n in COLUMNS}
    for start, n, drawn, done in chunks(s, samples):
        cost[:, start : start + n] = done.cost
        for name, f in drawn.items():
            factors[name][:, start : start + n] = f
    return PlanSamples(seed, tuple(s.ids), tuple(s.described), cost, factors)
