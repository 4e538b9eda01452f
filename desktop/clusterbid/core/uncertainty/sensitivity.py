"""Sensitivity of the ranking: tipping points of the weights, the tornado, and rank stability."""

from __future__ import annotations

from dataclasses import dataclass

from clusterbid.core.evaluation import Evaluation
from clusterbid.core.scoring import Scorecard
from clusterbid.core.uncertainty.model_inputs import model_inputs
from clusterbid.core.uncertainty.montecarlo import UncertaintyResult, run_monte_carlo
from clusterbid.core.uncertainty.tipping import TippingPoint, tipping_points
from clusterbid.core.uncertainty.tornado import TornadoBar, tornado


@dataclass(frozen=True, slots=True)
class Sensitivity:
    tipping_points: dict[str, TippingPoint]  # per non-cost weight
    tornado: list[TornadoBar]  # winner's and runner-up's inputs, largest swing first
    rank_stability: dict[str, float]  # per passing bid, from the Monte Carlo


def analyse_sensitivity(
    evaluation: Evaluation,
    uncertainty: UncertaintyResult | None = None,
    scorecard: Scorecard | None = None,
) -> Sensitivity:
    """Tipping points of `scorecard`'s ranking (the point estimate's when not given) and the
    tornado from the point estimate; rank stability from `uncertainty` (run with the evaluation's
    seed and default samples when not given)."""
    inputs = model_inputs(evaluation, scorecard)
    if uncertainty is None:
        uncertainty = run_monte_carlo(evaluation, scorecard=inputs.scorecard)
    leaders = [s.bid.id for s in inputs.scorecard.ranked[:2]]
    return Sensitivity(
        tipping_points=tipping_points(inputs.scorecard),
        tornado=tornado(inputs, leaders),
        rank_stability={bid_id: b.rank_stability for bid_id, b in uncertainty.bids.items()},
    )
