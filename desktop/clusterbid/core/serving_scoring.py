"""Rank bids for an inference service by cost per million output tokens and the weighted criteria."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from clusterbid.core.costmodel.serving_estimate import (
    ServingEstimate,
    ServingEstimates,
    estimate_serving,
)
from clusterbid.core.errors import InputError
from clusterbid.core.evaluation import DECISION_WORDS, Evaluation
from clusterbid.core.must_haves import gated_by_must_haves
from clusterbid.core.provider_rating import ratings_by_provider
from clusterbid.core.ranking import BidScore, rank_bids
from clusterbid.core.scoring import GRADE_SCORES, non_cost_criteria
from clusterbid.core.serving_capacity_gate import judged_on_capacity
from clusterbid.core.uncertainty.serving_montecarlo import (
    ServingBand,
    ServingDraws,
    ServingUncertainty,
    draw_serving,
    summarise,
)
from clusterbid.core.workloads import is_serving

# The policy's cost weight (named for training's cost to finish) weighs the serving cost.
COST_CRITERION = "cost_per_million_tokens"


@dataclass(frozen=True, slots=True)
class ServingScorecard:
    evaluation: Evaluation
    weights: dict[str, float]  # normalised; the cost weight under COST_CRITERION
    # Ranked first (core/ranking.py, on cost per token), then bids that cannot serve, in entry order.
    scores: tuple[BidScore[ServingEstimate], ...]
    uncertainty: ServingUncertainty | None = None  # P10-P90 bands and chance of being cheapest
    decision_basis: str = "point"  # issue 31: "expected" or "p50" once ranked on the bands
    decision_costs: dict[str, float] = field(
        default_factory=dict
    )  # bid id -> cost per million ranked

    @property
    def decision_words(self) -> str:
        return DECISION_WORDS[self.decision_basis].replace(
            "net cost", "cost per million output tokens"
        )

    def band(self, bid_id: str) -> ServingBand | None:
        if self.uncertainty is None:
            return None
        return next((b for b in self.uncertainty.bands if b.bid_id == bid_id), None)

    @property
    def ranked(self) -> list[BidScore[ServingEstimate]]:
        return [s for s in self.scores if s.rank is not None]


def serving_evidence_score(estimate: ServingEstimate) -> float:
    """The grade of the measured decode throughput the bid is costed with (none: 0). A figure kept
    on file but flagged and not used (above the model's ceiling, no reason recorded) earns
    nothing: a tester's unused file, and one claiming 1e300 tokens/s, lifted a bid to first."""
    used = estimate.throughput_evidence
    return GRADE_SCORES[used.grade] if used is not None else 0.0


def serving_run(evaluation: Evaluation) -> tuple[ServingEstimates, tuple[ServingEstimate, ...]]:
    """Every bid's serving estimate (the bands run on these), and each with the policy's
    must-haves applied (issue 34: they exclude a bid, as the fleet's own gates do)."""
    rates = [
        float(evaluation.rate_to_evaluation_currency(b.terms.currency)) for b in evaluation.bids
    ]
    run = estimate_serving(
        evaluation.workload, evaluation.bids, rates, currency=evaluation.currency
    )
    return run, tuple(gated_by_must_haves(e, evaluation.policy.must_haves) for e in run.bids)


def gated_draws(
    run: ServingEstimates,
    estimates: tuple[ServingEstimate, ...],
    samples: int | None,
    seed: int,
) -> tuple[tuple[ServingEstimate, ...], ServingDraws]:
    """The bands' draws for the bids the must-haves let through (`estimates`; a bid they exclude
    is never "cheapest" in a draw), each of those judged on the share of the first pass of draws
    it can serve (serving_capacity_gate.py; the same share beside any rivals), the draws marking
    the bids left. Each bid's draws are its own, so gating one leaves the others' as they were.
    `samples` None: the default run."""
    judged: list[ServingEstimate] = list(estimates)

    def judge(first: np.ndarray) -> np.ndarray:
        servable = {
            e.bid.id: float(np.isfinite(first[i]).mean())
            for i, e in enumerate(estimates)
            if e.passes_gates
        }
        judged[:] = judged_on_capacity(estimates, servable, run.workload.fleet_percentile)
        return np.array([e.passes_gates for e in judged], dtype=bool).reshape(-1, 1)

    drawn = draw_serving(ServingEstimates(run.workload, estimates), samples, seed, judge)
    return tuple(judged), drawn


def score_serving_evaluation(evaluation: Evaluation) -> ServingScorecard:
    """Run the serving model, set aside bids that cannot serve, and rank the rest."""
    if not is_serving(evaluation):
        raise InputError("this evaluation buys a training run: score it with score_evaluation")
    run, estimates = serving_run(evaluation)
    normalised = evaluation.policy.weights.normalised()
    weights = {COST_CRITERION: normalised.pop("cost_to_finish"), **normalised}

    def criteria(estimate: ServingEstimate) -> dict[str, float]:
        values = non_cost_criteria(
            estimate.bid,
            evaluation.policy.required_certifications,
            ratings_by_provider(evaluation.provider_ratings),
        )
        values["evidence"] = serving_evidence_score(estimate)
        return values

    # Issue 31: rank on the bands (the policy's basis: mean or median over the samples that serve),
    # not on the point estimate, which sizes each fleet at its assumed efficiencies.
    estimates, drawn = gated_draws(run, estimates, None, evaluation.policy.random_seed)
    uncertainty = summarise(
        ServingEstimates(run.workload, estimates), drawn, evaluation.policy.random_seed
    )
    basis = evaluation.policy.decision_basis
    costs = {
        b.bid_id: b.decision_cost(basis)
        for b in uncertainty.bands
        if math.isfinite(b.decision_cost(basis))
    }

    def cost(e: ServingEstimate) -> float:
        return costs.get(e.bid.id, e.cost_per_million_tokens)

    scores = rank_bids(
        estimates, cost=cost, cost_criterion=COST_CRITERION, weights=weights, criteria=criteria
    )
    return ServingScorecard(
        evaluation, weights, scores, uncertainty, basis if costs else "point", costs
    )
