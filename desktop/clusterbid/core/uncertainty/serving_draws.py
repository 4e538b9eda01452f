"""The draws of the serving bands (issue 37), each (bids, samples) from common random numbers per
(seed, bid or market, input) (streams.py), so editing one bid never moves another's band.

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
Payment terms nobody stated are drawn as training draws them (due on invoice to net 30). A stated
traffic growth is drawn around the buyer's figure, one draw per sample shared by every bid.
"""

from __future__ import annotations

import math

import numpy as np

from clusterbid.core.costmodel.engine_efficiency import (
    engine_of_run,
    run_engine_name,
    workload_shape,
)
from clusterbid.core.costmodel.engine_reach import engine_reach, mismatch_reach, run_reach
from clusterbid.core.costmodel.serving_estimate import ServingEstimate, ServingEstimates
from clusterbid.core.costmodel.serving_evidence_shape import draw_spread
from clusterbid.core.costmodel.serving_growth_words import growth_spread
from clusterbid.core.engine_names import NOT_STATED
from clusterbid.core.evidence.model import Evidence, EvidenceGrade
from clusterbid.core.serving_workload import InferenceWorkload
from clusterbid.core.uncertainty.spreads import claim_centre
from clusterbid.core.uncertainty.streams import MARKET, stream
from clusterbid.core.uncertainty.term_ranges import draw, term_ranges

PAYMENT_PATH = "terms.payment_terms_days"  # the one commercial term a serving bill draws (issue 31)

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
# Issue 37: scales the engine's reach (engine_draws); 0 draws the point's engine only (tests).
ENGINE_SPREAD_SCALE = 1.0
# A throughput claim without a log is the provider's best configuration: median 10% lower.
CLAIM_MEDIAN = 0.90


def claim_median(engine: float) -> float:
    """The multiplier on a claimed engine factor that centres it (claim_centre: its haircut figure,
    never below the workload's assumptions, factor 1)."""
    return claim_centre(engine, 1.0, CLAIM_MEDIAN) / engine


def efficiency_draws(
    estimates: ServingEstimates, engines: np.ndarray, samples: int, seed: int
) -> tuple[np.ndarray, np.ndarray]:
    """(MBU multiplier, compute multiplier), each (bids, samples); `engines`: each bid's engine
    factor over the workload's assumed efficiencies (1 without evidence)."""
    market = stream(seed, MARKET, "serving_mbu").standard_normal(samples)
    stack = np.exp(COMPUTE_SIGMA * stream(seed, MARKET, "serving_compute").standard_normal(samples))
    engine_z = _engine_z(samples, seed)
    engine_mbu, engine_compute = _engine_multipliers(
        engine_reach(estimates.workload.serving_engine, workload_shape(estimates.workload)),
        engine_z,
    )
    mbu, compute = [], []
    for e, engine in zip(estimates.bids, engines, strict=True):
        own = stream(seed, e.bid.id, "serving_mbu").standard_normal(samples)
        run = e.throughput_evidence
        if run is None or run.grade is EvidenceGrade.PROVIDER_CLAIM:
            median = 1.0 if run is None else claim_median(float(engine))
            mbu.append(
                median * engine_mbu * np.exp(MARKET_MBU_SIGMA * market + MBU_SIGMA[None] * own)
            )
            compute.append(median * engine_compute * stack)
        else:
            drawn = _measured_draw(estimates, e, run, own, engine_z)
            mbu.append(drawn[0])
            compute.append(drawn[1])
    return np.asarray(mbu), np.asarray(compute)


def _measured_draw(
    estimates: ServingEstimates,
    e: ServingEstimate,
    run: Evidence,
    own: np.ndarray,
    engine_z: np.ndarray,
) -> tuple[np.ndarray, np.ndarray]:
    """(MBU, compute) multipliers of a bid whose engine factor a measured run set: its grade's
    spread, widened (issue 37) for what the run leaves unstated (its lengths above all) and for
    carrying it to another tensor-parallel degree, another GPU or other lengths than the
    service's; then the buyer's engine: unstated, it moves the run's engine too; stated, a run on
    another engine reaches the catalog's gap between the two."""
    w = estimates.workload
    sigma = math.hypot(
        MBU_SIGMA.get(run.grade, MARKET_MBU_SIGMA),
        draw_spread(
            run, e.tensor_parallel, e.bid.capacity.gpu_model, (w.prompt_tokens, w.output_tokens)
        ),
    )
    drawn = np.exp(sigma * own)
    reach = (
        run_reach(engine_of_run(run_engine_name(run)), workload_shape(w), e.bid.capacity.gpu_model)
        if w.serving_engine == NOT_STATED
        else mismatch_reach(
            w.serving_engine,
            run_engine_name(run),
            (
                e.assumed_hbm_efficiency / w.hbm_efficiency,
                e.assumed_compute_efficiency / w.compute_efficiency,
            ),
            workload_shape(w),
            e.bid.capacity.gpu_model,
        )
    )
    if reach is None:
        return drawn, drawn
    run_mbu, run_compute = _engine_multipliers(reach, engine_z)
    return drawn * run_mbu, drawn * run_compute


def engine_draws(
    workload: InferenceWorkload, samples: int, seed: int
) -> tuple[np.ndarray, np.ndarray]:
    """Issue 37: the engine's (HBM, compute) multipliers of each sample, shared by every bid
    without measured evidence (one engine serves whichever bid wins): one draw z, two-piece, so an
    unstated engine reaches the slowest published engine at P10 and the fastest at P90, and a named
    one spans its own published range (costmodel/engine_reach.engine_reach). A measured bid
    draws the same z from its run's engine when the buyer's is not stated (efficiency_draws)."""
    return _engine_multipliers(
        engine_reach(workload.serving_engine, workload_shape(workload)), _engine_z(samples, seed)
    )


def _engine_z(samples: int, seed: int) -> np.ndarray:
    return stream(seed, MARKET, "serving_engine").standard_normal(samples)


def _engine_multipliers(
    reach: tuple[tuple[float, float], tuple[float, float]], z: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """(HBM, compute) multipliers of the shared draw `z` under (down, up) sigmas per axis."""
    hbm, compute = (
        np.exp(ENGINE_SPREAD_SCALE * np.where(z < 0, down, up) * z) for down, up in reach
    )
    return hbm, compute


def payment_draws(
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


def growth_draws(workload: InferenceWorkload, samples: int, seed: int) -> np.ndarray:
    """Issue 37: the monthly traffic growth of each sample, a fraction: normal around the stated
    growth with its spread (serving_growth_words), one draw per sample shared by every bid (the
    buyer's traffic does not depend on the bid), never below the field's -50% a month."""
    stated = workload.traffic_growth_percent_per_month / 100.0
    spread = growth_spread(workload)
    if not stated and not spread:
        return np.zeros(samples)
    z = stream(seed, MARKET, "serving_growth").standard_normal(samples)
    return np.asarray(np.maximum(stated + spread * z, -0.5), dtype=float)
