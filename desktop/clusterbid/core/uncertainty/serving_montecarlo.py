"""Bands on the serving cost: P10/P50/P90 of cost per million output tokens and of the monthly
bill, and each bid's chance of being the cheapest.

Two inputs carry most of the doubt in a latency-bound serving estimate: the HBM efficiency
(MBU) a stack reaches in decode, and the share of dense peak its matmuls reach (prefill rides
in every step). Each is a log-normal multiplier, `exp(sigma z)`, on the figure the point
estimate used. The default MBU is one assumption shared by every bid without serving
evidence, so those bids share one draw (a common shock) plus a small per-bid part for the
provider's own configuration. Compute efficiency is the buyer's stack: one draw shared by
every bid without evidence. A bid whose efficiencies come from its benchmark (one engine
factor for both, serving_calibration) draws that factor alone, narrower the better its grade.
A claim without a log cannot be checked: it is drawn exactly as the same bid without evidence
(the shared draws), centred on its engine factor less 10% as a best case but never below the
workload's assumptions (issue 31: a claim equal to the prediction draws what silence draws).
Payment terms nobody stated are drawn as training draws them (due on invoice to net 30), priced
as the cost of cash in the cost per million tokens, never in the monthly bill (issue 31).
A stated traffic growth is drawn around the buyer's figure (issue 37, serving_growth_words), one
draw per sample shared by every bid. The failure rate and the node replacement time are drawn as
training draws them (serving_reliability): they move the SLA credit the buyer can claim. Draws
come from common random numbers per (seed, bid, input), so editing one bid never moves another's
band.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np

from clusterbid.core.catalog import default_catalog
from clusterbid.core.costmodel.serving import Fleet, fleet, replica_grid
from clusterbid.core.costmodel.serving_calibration import calibrate_serving
from clusterbid.core.costmodel.serving_estimate import ServingEstimates
from clusterbid.core.costmodel.serving_evidence_shape import extra_spread
from clusterbid.core.costmodel.serving_growth_words import growth_spread, judged_months
from clusterbid.core.costmodel.serving_inputs import (
    ServingArrays,
    ServingScalars,
    build_serving_arrays,
)
from clusterbid.core.costmodel.serving_queue import EXACT_SERVER_LIMIT
from clusterbid.core.evidence.model import EvidenceGrade
from clusterbid.core.sample_counts import DEFAULT_SAMPLES
from clusterbid.core.serving_workload import InferenceWorkload
from clusterbid.core.uncertainty.serving_reliability import credit_share_draws
from clusterbid.core.uncertainty.serving_search import samples_per_pass, search
from clusterbid.core.uncertainty.serving_slo import costed_fleets, meets_at_peak
from clusterbid.core.uncertainty.spreads import claim_centre
from clusterbid.core.uncertainty.streams import MARKET, stream
from clusterbid.core.uncertainty.term_ranges import draw, term_ranges

PAYMENT_PATH = "terms.payment_terms_days"  # the one commercial term a serving bill draws (issue 31)

# Issue 37: the same sample count as training (20,000 at 400 before: +/-5 points on the chance of
# being cheapest); each draw searches a smaller grid (serving_search) to stay in the same time.
SAMPLES = DEFAULT_SAMPLES
SEED = (
    20_260_330  # when no evaluation's seed is given; scoring passes the policy's, as training does
)
# As training's (montecarlo.py): the default run stops at the end of the first pass of 4,096
# samples after which every bid's chance of being cheapest is known to +/- 1 point at 95%.
STOP_PASS = 4096
WIN_PRECISION = 0.01
WIN_Z = 1.959964


def chances_known(ranked: np.ndarray) -> bool:
    """Every bid's chance of being cheapest over these samples (bids x samples, inf: cannot
    serve) known to +/- WIN_PRECISION at 95% (normal approximation of a binomial share)."""
    n = ranked.shape[1]
    wins = np.isfinite(ranked).any(axis=0)
    winner = np.argmin(ranked, axis=0)
    share = np.array([np.mean(wins & (winner == i)) for i in range(ranked.shape[0])])
    return bool(np.all(WIN_Z * np.sqrt(share * (1 - share) / n) <= WIN_PRECISION))


# Log-space sigma of a bid's MBU by the grade of the decode benchmark that set it (None: the
# workload's default). An independent run repeats within a few percent; the default MBU spans
# the 60-85% that public stacks reach (+/-15%).
MBU_SIGMA = {
    EvidenceGrade.MEASURED_INDEPENDENT: 0.04,
    EvidenceGrade.MEASURED_PROVIDER: 0.07,
    EvidenceGrade.PROVIDER_CLAIM: 0.12,
    None: 0.05,  # the per-bid part; the shared part is MARKET_MBU_SIGMA
}
MARKET_MBU_SIGMA = 0.15
COMPUTE_SIGMA = 0.15
# A throughput claim without a log is the provider's best configuration: median 10% lower.
CLAIM_MEDIAN = 0.90
# Queueing headroom in the bands is worked out exactly as in the point estimate.
EXACT_SLOTS = EXACT_SERVER_LIMIT
PERCENTILES = (10.0, 50.0, 90.0)


@dataclass(frozen=True, slots=True)
class ServingBand:
    bid_id: str
    cost_per_million: tuple[float, float, float]  # P10, P50, P90 (nan: never servable)
    monthly_cost: tuple[float, float, float]
    chance_cheapest: float
    chance_servable: float  # share of samples in which the bid meets the targets at all
    # Issue 31: the mean cost per million over the samples that serve, and the share of them at or
    # below the point estimate's figure (a fleet sized in whole nodes can be its own P10).
    mean_cost_per_million: float = float("nan")
    point_percentile: float = float("nan")
    # Issue 31: the fleet the approval is sized at, the draw at the workload's fleet_percentile of
    # the monthly bill (one real fleet, so its GPUs and its bill agree): (GPUs needed, billed, bill).
    fleet_percentile: int = 80
    fleet_at_percentile: tuple[int, int, float] | None = None
    # Issue 37: the share of draws in which the fleet as costed meets both targets at the stated
    # peak, its batch retuned to the draw (serving_slo); nan when the bid cannot serve.
    chance_meets_slo_at_peak: float = float("nan")
    # Issue 37: the months at whose peak that chance is judged (month 1 and the term's last when the
    # traffic grows or its growth is drawn; serving_growth_words.judged_months).
    judged_months: tuple[int, ...] = (1,)

    def decision_cost(self, basis: str) -> float:
        return self.mean_cost_per_million if basis == "expected" else self.cost_per_million[1]


@dataclass(frozen=True, slots=True)
class ServingUncertainty:
    samples: int
    seed: int
    bands: tuple[ServingBand, ...]  # entry order of the estimates
    # Issue 34: the share of draws in which one bid costs less per million tokens than another
    # ((cheaper, than) -> share; a draw where a bid cannot serve counts as not cheaper), for up to
    # PAIRWISE_MAX_BIDS bids (bids x bids x samples comparisons); empty beyond.
    cheaper_than: dict[tuple[str, str], float] = field(default_factory=dict)

    def chance_cheaper(self, bid_id: str, than: str) -> float | None:
        return self.cheaper_than.get((bid_id, than))


def claim_median(engine: float) -> float:
    """The multiplier on a claimed engine factor that centres it (claim_centre: its haircut figure,
    never below the workload's assumptions, factor 1)."""
    return claim_centre(engine, 1.0, CLAIM_MEDIAN) / engine


def _draws(
    estimates: ServingEstimates, engines: np.ndarray, samples: int, seed: int
) -> tuple[np.ndarray, np.ndarray]:
    """(MBU multiplier, compute multiplier), each (bids, samples); `engines`: each bid's engine
    factor over the workload's assumed efficiencies (1 without evidence)."""
    market = stream(seed, MARKET, "serving_mbu").standard_normal(samples)
    stack = np.exp(COMPUTE_SIGMA * stream(seed, MARKET, "serving_compute").standard_normal(samples))
    mbu, compute = [], []
    for e, engine in zip(estimates.bids, engines, strict=True):
        own = stream(seed, e.bid.id, "serving_mbu").standard_normal(samples)
        grade = None if e.throughput_evidence is None else e.throughput_evidence.grade
        if grade is None or grade is EvidenceGrade.PROVIDER_CLAIM:
            median = 1.0 if grade is None else claim_median(float(engine))
            mbu.append(median * np.exp(MARKET_MBU_SIGMA * market + MBU_SIGMA[None] * own))
            compute.append(median * stack)
        else:
            # Issue 37: what the run leaves unstated (its lengths above all) widens its draw.
            sigma = float(
                np.hypot(
                    MBU_SIGMA.get(grade, MARKET_MBU_SIGMA),
                    extra_spread(e.throughput_evidence) if e.throughput_evidence else 0.0,
                )
            )
            drawn = np.exp(sigma * own)
            mbu.append(drawn)
            compute.append(drawn)
    return np.asarray(mbu), np.asarray(compute)


def _payment_draws(
    estimates: ServingEstimates, point_days: np.ndarray, samples: int, seed: int
) -> np.ndarray:
    """Each bid's payment days over the samples (bids, samples): terms nobody stated drawn as
    training draws them (term_ranges.py: due on invoice to net 30, from the bid's own stream),
    stated ones fixed at their figure."""
    days = np.repeat(np.asarray(point_days, dtype=float)[:, None], samples, axis=1)
    for i, e in enumerate(estimates.bids):
        for term in term_ranges(e.bid):
            if term.path == PAYMENT_PATH:
                days[i] = draw(stream(seed, e.bid.id, term.stream_name), term, samples)
    return days


def _growth_draws(workload: InferenceWorkload, samples: int, seed: int) -> np.ndarray:
    """Issue 37: the monthly traffic growth of each sample, a fraction: normal around the stated
    growth with its spread (serving_growth_words), one draw per sample shared by every bid (the
    buyer's traffic does not depend on the bid), never below the field's -50% a month."""
    stated = workload.traffic_growth_percent_per_month / 100.0
    spread = growth_spread(workload)
    if not stated and not spread:
        return np.zeros(samples)
    z = stream(seed, MARKET, "serving_growth").standard_normal(samples)
    return np.asarray(np.maximum(stated + spread * z, -0.5), dtype=float)


def _tile(arrays: ServingArrays, repeats: int) -> ServingArrays:
    """Every per-bid column repeated `repeats` times: rows are (bid, sample) pairs."""
    return arrays.replace(
        **{name: np.repeat(getattr(arrays, name), repeats) for name in arrays.__slots__}
    )


def serving_uncertainty(
    estimates: ServingEstimates, samples: int | None = None, seed: int = SEED
) -> ServingUncertainty:
    """Run the serving model over sampled efficiencies and summarise each bid's cost."""
    adaptive = samples is None  # the default run stops once the chances are known, as training's
    samples = SAMPLES if samples is None else samples
    workload = estimates.workload
    bids = [e.bid for e in estimates.bids]
    rates = [e.exchange_rate for e in estimates.bids]
    w = ServingScalars.from_workload(workload)
    spec = build_serving_arrays(workload, bids, default_catalog(), rates)
    base, _, _ = calibrate_serving(w, spec, bids)
    mbu, compute = _draws(estimates, base.hbm_efficiency / spec.hbm_efficiency, samples, seed)
    payment_days = _payment_draws(estimates, base.payment_days, samples, seed)
    growth = _growth_draws(workload, samples, seed)
    credit = credit_share_draws(bids, samples, seed)  # issue 37: failure rate and repair drawn
    w, batches, allowed = search(w, estimates)
    chunk = samples_per_pass(len(bids), len(w.tp_choices), len(batches))
    per_million = np.full((len(bids), samples), np.inf)
    monthly = np.full((len(bids), samples), np.nan)
    gpus = np.zeros((2, len(bids), samples))  # needed, billed
    fleets = costed_fleets(estimates, w.tp_choices, judged_months(workload))
    slo = np.zeros((len(bids), samples), dtype=bool)
    eligible = np.array([e.passes_gates for e in estimates.bids])[:, None]
    done = 0  # samples run so far; passes end on multiples of STOP_PASS, where the stop is checked
    while done < samples:
        start, stop = done, min(done + chunk, samples, (done // STOP_PASS + 1) * STOP_PASS)
        n = stop - start
        arrays = _tile(base, n)
        arrays = arrays.replace(
            # Capped at the GPU's peak, or at the figure an officer chose to use above it (issue 37).
            hbm_efficiency=np.minimum(
                arrays.hbm_efficiency * mbu[:, start:stop].ravel(),
                np.maximum(arrays.hbm_efficiency, 1.0),
            ),
            compute_efficiency=np.minimum(
                arrays.compute_efficiency * compute[:, start:stop].ravel(),
                np.maximum(arrays.compute_efficiency, 1.0),
            ),
            payment_days=payment_days[:, start:stop].ravel(),
            traffic_growth=np.tile(growth[start:stop], len(bids)),
            sla_credit_share=credit[:, start:stop].ravel(),
        )
        grid = replica_grid(w, arrays, batches)
        grid = replace(
            grid, feasible=grid.feasible & np.repeat(allowed, n, axis=0)
        )  # each bid's own search
        plan = fleet(w, arrays, grid, exact_slots=EXACT_SLOTS)
        ok = plan.servable.reshape(len(bids), n)
        per_million[:, start:stop] = np.where(
            ok, plan.cost_per_million_tokens.reshape(len(bids), n), np.inf
        )
        monthly[:, start:stop] = np.where(ok, plan.monthly_cost.reshape(len(bids), n), np.nan)
        needed, billed = _fleet_at_peak_month(w, plan)
        gpus[0, :, start:stop] = np.where(ok, needed.reshape(len(bids), n), 0)
        gpus[1, :, start:stop] = np.where(ok, billed.reshape(len(bids), n), 0)
        slo[:, start:stop] = meets_at_peak(w, grid, fleets, n, EXACT_SLOTS, growth[start:stop])
        done = stop
        if (
            adaptive
            and done % STOP_PASS == 0
            and done < samples
            and chances_known(np.where(eligible, per_million[:, :done], np.inf))
        ):
            break
    samples = done
    per_million, monthly, gpus, slo = (
        per_million[:, :done],
        monthly[:, :done],
        gpus[:, :, :done],
        slo[:, :done],
    )
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
                cost_per_million=_percentiles(per_million[i]),
                monthly_cost=_percentiles(monthly[i]),
                chance_cheapest=wins,
                chance_servable=float(servable.mean()),
                mean_cost_per_million=float(served.mean()) if served.size else float("nan"),
                point_percentile=(
                    float(np.mean(served <= point * (1 + 1e-12)))
                    if served.size and point is not None
                    else float("nan")
                ),
                fleet_percentile=workload.fleet_percentile,
                fleet_at_percentile=_fleet_at(monthly[i], gpus[:, i], workload.fleet_percentile),
                chance_meets_slo_at_peak=float(slo[i].mean()) if e.replicas else float("nan"),
                judged_months=fleets.months,
            )
        )
    return ServingUncertainty(samples, seed, tuple(bands), _cheaper_than(estimates, ranked))


PAIRWISE_MAX_BIDS = 64  # 64 x 64 x 20,000 comparisons at most (about 0.1 s); more: not computed


def _cheaper_than(estimates: ServingEstimates, ranked: np.ndarray) -> dict[tuple[str, str], float]:
    """Each ordered pair's share of draws in which the first costs less than the second."""
    ids = [e.bid.id for e in estimates.bids]
    if len(ids) > PAIRWISE_MAX_BIDS or ranked.shape[1] == 0:
        return {}
    pairs = {}
    for i, bid_id in enumerate(ids):
        shares = (ranked[i][None, :] < ranked).mean(axis=1)  # inf < inf is False: neither serves
        pairs.update({(bid_id, other): float(shares[j]) for j, other in enumerate(ids) if j != i})
    return pairs


def _fleet_at_peak_month(w: ServingScalars, plan: Fleet) -> tuple[np.ndarray, np.ndarray]:
    """Each row's (GPUs needed, GPUs billed) at the peak month of its term (issue 37: the largest
    month's fleet, month 1's when the traffic does not grow), each (rows,); nan where none."""
    tp = np.asarray(w.tp_choices, dtype=float)[np.maximum(plan.tp_index, 0)]
    needed = np.nanmax(plan.term.replicas_at_peak, axis=1, initial=-np.inf) * tp
    billed = np.nanmax(plan.term.gpus_at_peak, axis=1, initial=-np.inf)
    return np.where(plan.servable, needed, np.nan), np.where(plan.servable, billed, np.nan)


def _fleet_at(
    monthly: np.ndarray, gpus: np.ndarray, percentile: int
) -> tuple[int, int, float] | None:
    """The serving draw at `percentile` of the monthly bill (the smallest draw with at least that
    share of the serving draws at or below it): its GPUs needed and billed, and its bill."""
    serving = np.flatnonzero(np.isfinite(monthly))
    if serving.size == 0:
        return None
    ordered = serving[np.argsort(monthly[serving], kind="stable")]
    at = ordered[max(int(np.ceil(percentile / 100.0 * serving.size)) - 1, 0)]
    return int(gpus[0, at]), int(gpus[1, at]), float(monthly[at])


def _percentiles(values: np.ndarray) -> tuple[float, float, float]:
    """Percentiles over the samples that serve (an unservable sample is not a cost)."""
    finite = values[np.isfinite(values)]
    if finite.size == 0:
        return (np.nan, np.nan, np.nan)
    low, middle, high = (float(v) for v in np.percentile(finite, PERCENTILES))
    return low, middle, high
