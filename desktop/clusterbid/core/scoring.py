"""Gates, the cost-to-finish ranking, and weighted non-cost criteria, into one scorecard."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from clusterbid.core.bid import Bid
from clusterbid.core.costmodel.estimate import BidEstimate, estimate_training

# The criteria and their scores are declared in criteria.py; the views import these from here too.
from clusterbid.core.criteria import EXPECTED_EVIDENCE as EXPECTED_EVIDENCE
from clusterbid.core.criteria import GRADE_SCORES as GRADE_SCORES
from clusterbid.core.criteria import SUPPORT_SCORES as SUPPORT_SCORES
from clusterbid.core.criteria import CriterionInputs, bid_scores
from clusterbid.core.criteria import evidence_score as evidence_score
from clusterbid.core.criteria import sla_score as sla_score
from clusterbid.core.deadline_gate import judged_on_draws
from clusterbid.core.errors import InputError
from clusterbid.core.evaluation import DECISION_WORDS, Evaluation
from clusterbid.core.must_haves import gated_by_must_haves
from clusterbid.core.provider_rating import ProviderRating, ratings_by_provider
from clusterbid.core.ranking import BidScore, rank_bids  # BidScore: imported from here too


@dataclass(frozen=True, slots=True)
class Scorecard:
    evaluation: Evaluation
    weights: dict[str, float]  # normalised to sum to 1
    scores: tuple[BidScore[BidEstimate], ...]  # ranked first, then excluded bids in entry order
    # Issue 31: what the cost criterion ranked on. "point" only where no Monte Carlo ran (the
    # app's first paint, a memo without bands); uncertainty/decision.py gives "expected" or "p50".
    decision_basis: str = "point"
    decision_costs: dict[str, float] = field(default_factory=dict)  # bid id -> the figure ranked
    # Analyses derived from these scores (default effects, the ranks they move), each computed
    # once per scorecard, off the window's thread, and read by every view (issue 32). Not copied
    # by dataclasses.replace: a re-ranked scorecard derives its own.
    derived: dict[str, object] = field(default_factory=dict, init=False, compare=False, repr=False)

    def decision_cost(self, score: BidScore[BidEstimate]) -> float:
        return self.decision_costs.get(score.bid.id, score.estimate.plan_cost)

    @property
    def decision_words(self) -> str:
        return DECISION_WORDS[self.decision_basis]

    @property
    def ranked(self) -> list[BidScore[BidEstimate]]:
        return [s for s in self.scores if s.rank is not None]


def non_cost_criteria(
    bid: Bid,
    required_certifications: tuple[str, ...],
    ratings: Mapping[str, ProviderRating] | None = None,
) -> dict[str, float]:
    """Each non-cost criterion in 0-1, as criteria.py scores it. `ratings` (provider -> third-party
    rating) scores the provider's rating apart from anything its bid claims (issue 39)."""
    inputs = CriterionInputs(required_certifications, ratings or {})
    # Kept per bid object: an edit re-scores every bid (12 ms at 500 bids) and changes one. A
    # bid is a frozen model, so the same object has the same figures; the object is held with
    # its scores, so its id is not reused while they are kept.
    found = _KEPT_CRITERIA.get(id(bid))
    if found is not None and found[0] is bid and found[1] == inputs:
        return dict(found[2])
    values = bid_scores(bid, inputs)
    if len(_KEPT_CRITERIA) >= KEPT_CRITERIA_BIDS:
        _KEPT_CRITERIA.clear()  # a new evaluation's bids, or many edits: start again
    _KEPT_CRITERIA[id(bid)] = (bid, inputs, dict(values))
    return values


KEPT_CRITERIA_BIDS = 4_096
_KEPT_CRITERIA: dict[int, tuple[Bid, CriterionInputs, dict[str, float]]] = {}


def score_evaluation(
    evaluation: Evaluation,
    decision_costs: Mapping[str, float] | None = None,
    basis: str = "point",
    on_time: Mapping[str, float | None] | None = None,
) -> Scorecard:
    """Run the shared model, drop gated bids, and rank the rest by the weighted score. The cost
    criterion is each bid's net plan cost on `basis`: `decision_costs` (from the Monte Carlo,
    uncertainty/decision.py) where given, the point estimate otherwise. `on_time` (bid id -> the
    share of draws finishing by the deadline) judges the deadline on the draws (deadline_gate.py)
    for the bids it names."""
    if evaluation.workload.kind != "training":
        raise InputError(
            "this evaluation buys an inference service, not a training run, so it has no cost to "
            "finish: "
            "rank its bids by cost per million output tokens with `clusterbid score` "
            "(score_serving_evaluation)"
        )
    rates = [
        float(evaluation.rate_to_evaluation_currency(b.terms.currency)) for b in evaluation.bids
    ]
    estimates = estimate_training(evaluation.workload, evaluation.bids, rates).bids
    if on_time is not None:
        plan = evaluation.workload.plan
        estimates = tuple(
            judged_on_draws(e, plan, on_time[e.bid.id], evaluation.currency)
            if e.bid.id in on_time
            else e
            for e in estimates
        )
    # Issue 34: the policy's must-haves exclude a bid, as the cost model's gates do.
    estimates = tuple(gated_by_must_haves(e, evaluation.policy.must_haves) for e in estimates)
    weights = evaluation.policy.weights.normalised()
    costs = dict(decision_costs or {})

    def cost(e: BidEstimate) -> float:
        return costs.get(e.bid.id, e.plan_cost)

    ratings = ratings_by_provider(evaluation.provider_ratings)
    scores = rank_bids(
        estimates,
        cost=cost,
        cost_criterion="cost_to_finish",
        weights=weights,
        criteria=lambda e: non_cost_criteria(
            e.bid, evaluation.policy.required_certifications, ratings
        ),
    )
    return Scorecard(evaluation, weights, scores, basis if costs else "point", costs)
