"""Bands on the serving cost: P10/P50/P90 of cost per million output tokens and of the monthly
bill, and each bid's chance of being the cheapest.

Each draw runs the serving model at drawn efficiencies (serving_draws: HBM and compute efficiency,
a shared market part and each bid's own), payment days, traffic growth and failure rate and repair
time (serving_reliability), all from common random numbers per (seed, bid, input) as training's,
so editing one bid never moves another's band. Payment terms are priced as the cost of cash in the
cost per million tokens, never in the monthly bill (issue 31). Each draw searches each bid's own
neighbourhood of the point estimate (serving_search), its cells set once per run and each pass of
draws worked out over them as whole arrays (serving_passes: the figures of serving.fleet to the
last bit); serving_bands summarises the draws.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

import numpy as np

from clusterbid.core.catalog import default_catalog
from clusterbid.core.costmodel.serving_calibration import calibrate_serving
from clusterbid.core.costmodel.serving_estimate import ServingEstimates
from clusterbid.core.costmodel.serving_growth_words import judged_months
from clusterbid.core.costmodel.serving_inputs import (
    ServingArrays,
    ServingScalars,
    build_serving_arrays,
)
from clusterbid.core.costmodel.serving_queue import EXACT_SERVER_LIMIT
from clusterbid.core.costmodel.serving_replica import replica_comm
from clusterbid.core.sample_counts import DEFAULT_SAMPLES
from clusterbid.core.uncertainty.serving_bands import (
    ServingBand,
    ServingUncertainty,
    chances_known,
    cheaper_than,
    fleet_at,
    percentiles,
)
from clusterbid.core.uncertainty.serving_draws import (
    MBU_SIGMA,
    claim_median,
    efficiency_draws,
    growth_draws,
    payment_draws,
)
from clusterbid.core.uncertainty.serving_passes import Draws, draws_per_pass, run_pass, search_cells
from clusterbid.core.uncertainty.serving_reliability import credit_share_draws
from clusterbid.core.uncertainty.serving_search import reachable, search
from clusterbid.core.uncertainty.serving_slo import costed_fleets

# Named here for the callers and tests that read them from the Monte Carlo.
__all__ = [
    "EXACT_SLOTS",
    "MBU_SIGMA",
    "SAMPLES",
    "SEED",
    "STOP_PASS",
    "ServingBand",
    "ServingDraws",
    "ServingUncertainty",
    "chances_known",
    "claim_median",
    "draw_serving",
    "serving_uncertainty",
]

# Issue 37: the same sample count as training (20,000 at 400 before: +/-5 points on the chance of
# being cheapest); each draw searches a smaller grid (serving_search) to stay in the same time.
SAMPLES = DEFAULT_SAMPLES
SEED = (
    20_260_330  # when no evaluation's seed is given; scoring passes the policy's, as training does
)
# As training's (montecarlo.py): the default run stops at the end of the first pass of 4,096
# samples after which every bid's chance of being cheapest is known to +/- 1 point at 95%.
STOP_PASS = 4096
# Queueing headroom in the bands is worked out exactly as in the point estimate.
EXACT_SLOTS = EXACT_SERVER_LIMIT


def _rows(arrays: ServingArrays, rows: np.ndarray) -> ServingArrays:
    """The per-bid columns of the bids at `rows` only."""
    return arrays.replace(**{name: getattr(arrays, name)[rows] for name in arrays.__slots__})


@dataclass(frozen=True, slots=True)
class ServingDraws:
    """Every draw of the serving bands kept (bids, samples), entry order of the estimates: the cost
    per million output tokens (inf: cannot serve), the monthly bill (nan: cannot serve), the GPUs
    needed and billed (2, bids, samples), the SLO met at the peak, and the drawn inputs that
    evidence could settle (issue 37: value of information, serving_value.py)."""

    per_million: np.ndarray
    monthly: np.ndarray
    gpus: np.ndarray
    slo: np.ndarray
    eligible: np.ndarray  # (bids, 1): passes the gates
    mbu: np.ndarray  # each bid's HBM-efficiency multiplier (its engine factor when measured)
    payment_days: np.ndarray
    months: tuple[int, ...]  # the months whose peak the SLO is judged at

    @property
    def samples(self) -> int:
        return int(self.per_million.shape[1])


def serving_uncertainty(
    estimates: ServingEstimates, samples: int | None = None, seed: int = SEED
) -> ServingUncertainty:
    """Run the serving model over sampled efficiencies and summarise each bid's cost."""
    drawn = draw_serving(estimates, samples, seed)
    return summarise(estimates, drawn, seed)


def draw_serving(
    estimates: ServingEstimates,
    samples: int | None = None,
    seed: int = SEED,
    judge: Callable[[np.ndarray], np.ndarray] | None = None,
) -> ServingDraws:
    """Run the serving model over sampled efficiencies, every draw kept (`samples` None: the
    default run, stopped once every chance of being cheapest is known, as training's).

    `judge`: given the cost per million of the first STOP_PASS draws (bids, draws; fewer when
    fewer are asked for), which bids stay in the running (bids, 1). Every run makes those draws
    whatever the other bids, so a bid is judged the same beside any rivals (a gate judged on all
    the draws moved with the stop, which they decide); the stop is then checked among the bids
    left."""
    adaptive = samples is None  # the default run stops once the chances are known, as training's
    samples = SAMPLES if samples is None else samples
    workload = estimates.workload
    bids = [e.bid for e in estimates.bids]
    rates = [e.exchange_rate for e in estimates.bids]
    w = ServingScalars.from_workload(workload)
    spec = build_serving_arrays(workload, bids, default_catalog(), rates)
    base, _, _ = calibrate_serving(w, spec, bids)
    mbu, compute = efficiency_draws(
        estimates, base.hbm_efficiency / spec.hbm_efficiency, samples, seed
    )
    payment_days = payment_draws(estimates, base.payment_days, samples, seed)
    growth = growth_draws(workload, samples, seed)
    credit = credit_share_draws(bids, samples, seed)  # issue 37: failure rate and repair drawn
    w, batches, allowed = search(w, estimates)
    # Only the bids, degrees and batches some draw can reach are worked out per draw (exact).
    live, w, batches, allowed = reachable(w, base, batches, allowed)
    rows = np.flatnonzero(live)
    base = _rows(base, rows)
    comm = replica_comm(w, base, batches)  # no draw moves the all-reduces: once per bid
    per_million = np.full((len(bids), samples), np.inf)
    monthly = np.full((len(bids), samples), np.nan)
    gpus = np.zeros((2, len(bids), samples))  # needed, billed
    fleets = costed_fleets(estimates, w.tp_choices, judged_months(workload))
    live_fleets = replace(
        fleets,
        degree_index=fleets.degree_index[rows],
        replicas=fleets.replicas[rows],
        batch=None if fleets.batch is None else fleets.batch[rows],
    )
    cells = search_cells(w, base, batches, allowed, comm, live_fleets, EXACT_SLOTS)
    drawn = Draws(mbu[rows], compute[rows], payment_days[rows], credit[rows], growth)
    chunk = draws_per_pass(cells)
    slo = np.zeros((len(bids), samples), dtype=bool)
    eligible = np.array([e.passes_gates for e in estimates.bids])[:, None]
    judged_at = min(STOP_PASS, samples) if judge is not None else None
    done = 0  # samples run so far; passes end on multiples of STOP_PASS, where the stop is checked
    while done < samples:
        start, stop = done, min(done + chunk, samples, (done // STOP_PASS + 1) * STOP_PASS)
        if rows.size:
            one = run_pass(cells, drawn, start, stop)
            per_million[rows, start:stop], monthly[rows, start:stop] = one.per_million, one.monthly
            gpus[:, rows, start:stop], slo[rows, start:stop] = one.gpus, one.slo
        done = stop
        if judge is not None and done == judged_at:
            eligible = eligible & judge(per_million[:, :done])
        if (
            adaptive
            and done % STOP_PASS == 0
            and done < samples
            and chances_known(np.where(eligible, per_million[:, :done], np.inf))
        ):
            break
    return ServingDraws(
        per_million[:, :done],
        monthly[:, :done],
        gpus[:, :, :done],
        slo[:, :done],
        eligible,
        mbu[:, :done],
        payment_days[:, :done],
        fleets.months,
    )


def summarise(estimates: ServingEstimates, drawn: ServingDraws, seed: int) -> ServingUncertainty:
    """Each bid's band, chance of being cheapest and pairwise chances, from the draws (the
    chances among the bids `drawn.eligible` marks)."""
    per_million, monthly, gpus, slo = drawn.per_million, drawn.monthly, drawn.gpus, drawn.slo
    eligible, workload = drawn.eligible, estimates.workload
    ranked = np.where(eligible, per_million, np.inf)
    any_servable = np.isfinite(ranked).any(axis=0)
    winner = np.argmin(ranked, axis=0)
    bands = []
    for i, e in enumerate(estimates.bids):
        servable = np.isfinite(per_million[i])
        wins = float(np.mean(any_servable & (winner == i))) if eligible[i, 0] else 0.0
        served = per_million[i][servable]
        point = e.cost_per_million_tokens  # None: the point estimate cannot serve
        bands.append(
            ServingBand(
                bid_id=e.bid.id,
                cost_per_million=percentiles(per_million[i]),
                monthly_cost=percentiles(monthly[i]),
                chance_cheapest=wins,
                chance_servable=float(servable.mean()),
                mean_cost_per_million=float(served.mean()) if served.size else float("nan"),
                point_percentile=(
                    float(np.mean(served <= point * (1 + 1e-12)))
                    if served.size and point is not None
                    else float("nan")
                ),
                fleet_percentile=workload.fleet_percentile,
                fleet_at_percentile=fleet_at(monthly[i], gpus[:, i], workload.fleet_percentile),
                chance_meets_slo_at_peak=float(slo[i].mean()) if e.replicas else float("nan"),
                judged_months=drawn.months,
            )
        )
    return ServingUncertainty(drawn.samples, seed, tuple(bands), cheaper_than(estimates, ranked))
