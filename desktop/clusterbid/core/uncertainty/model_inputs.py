"""The calibrated model inputs of an evaluation's bids, as the point estimate used them."""

from __future__ import annotations

from dataclasses import dataclass, fields

import numpy as np

from clusterbid.core.catalog import default_catalog
from clusterbid.core.costmodel.calibration import calibrate
from clusterbid.core.costmodel.inputs import BidArrays, WorkloadScalars, build_bid_arrays
from clusterbid.core.costmodel.schedule_range import scheduled
from clusterbid.core.costmodel.training import Finish, finish, goodput, step_breakdown
from clusterbid.core.evaluation import Evaluation
from clusterbid.core.scoring import Scorecard, score_evaluation


@dataclass(frozen=True, slots=True)
class ModelInputs:
    """The scorecard, the workload scalars, and the calibrated arrays of the bids in `ids`."""

    scorecard: Scorecard
    workload: WorkloadScalars
    arrays: BidArrays  # calibrated, one entry per bid of `ids`
    ids: tuple[str, ...]


def model_inputs(evaluation: Evaluation, scorecard: Scorecard | None = None) -> ModelInputs:
    """Score the evaluation, then rebuild the calibrated arrays of every bid (same steps as
    estimate_training: spec columns, then evidence), so that perturbed copies can be re-run."""
    scorecard = scorecard or score_evaluation(evaluation)
    bids = list(evaluation.bids)
    rates = [float(evaluation.rate_to_evaluation_currency(b.terms.currency)) for b in bids]
    run = scheduled(evaluation.workload, bids)  # as estimate_training runs it
    w = WorkloadScalars.from_workload(run)
    spec = build_bid_arrays(run, bids, default_catalog(), rates)
    arrays, _ = calibrate(w, spec, bids, run)
    return ModelInputs(scorecard, w, arrays, tuple(b.id for b in bids))


def select(arrays: BidArrays, rows: list[int]) -> BidArrays:
    """The arrays of some bids only, in the given order."""
    return arrays.replace(**{f.name: getattr(arrays, f.name)[rows] for f in fields(BidArrays)})


def outcomes(w: WorkloadScalars, b: BidArrays) -> Finish:
    """Hours to finish and the contract's figures at the planned job size, broadcast like the inputs."""
    return finish(w, b, step_breakdown(w, b, w.job_gpus), goodput(w, b, w.job_gpus))


def cost_and_hours(w: WorkloadScalars, b: BidArrays) -> tuple[np.ndarray, np.ndarray]:
    """The net cost of the plan (what ranks) and the wall-clock hours, broadcast like the inputs."""
    done = outcomes(w, b)
    return done.cost, done.wall_hours
