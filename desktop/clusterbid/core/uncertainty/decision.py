"""One decision rule (issue 31): rank, recommend and size on the distribution of each bid's net
plan cost, never on its point estimate. The buyer's policy chooses the expected net cost (the
mean over the Monte Carlo samples, the default) or the median (P50); the point figure stays on
every page with its percentile, so an optimistic point (a fleet's P10, a claim taken at face
value) is seen as such."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from clusterbid.core.evaluation import Evaluation
from clusterbid.core.scoring import Scorecard, score_evaluation
from clusterbid.core.uncertainty.decided_draws import tallied_for
from clusterbid.core.uncertainty.montecarlo import (
    DEFAULT_SAMPLES,
    WIN_PRECISION,
    UncertaintyResult,
    monte_carlo_kept,
    run_monte_carlo,
)
from clusterbid.core.uncertainty.spreads import Spreads

Decided = tuple[Scorecard, UncertaintyResult]
# The decisions shared within `decisions_shared` (None outside it): keyed by the evaluation's
# content, the samples, the seed and the precision, which fix every draw.
_SHARED: ContextVar[dict[tuple[object, ...], Decided] | None] = ContextVar(
    "shared_decisions", default=None
)


@contextmanager
def decisions_shared() -> Iterator[None]:
    """Within it, `decide` asked again for an evaluation of the same content, samples, seed and
    precision returns the first answer instead of drawing again: the draws are fixed by those,
    so a second run could only repeat the first. Verify re-scores the attached inputs and renders
    them again, both deciding the same evaluation (core/memo/verification.py). A run given its
    own spreads or a checkpoint (the app's worker) is never shared."""
    token = _SHARED.set({})
    try:
        yield
    finally:
        _SHARED.reset(token)


def decide(
    evaluation: Evaluation,
    samples: int = DEFAULT_SAMPLES,
    seed: int | None = None,
    *,
    spreads: Spreads | None = None,
    precision: float | None = WIN_PRECISION,
    checkpoint: Callable[[], None] | None = None,
) -> Decided:
    """The scorecard ranked on the policy's decision basis, and the Monte Carlo behind it
    (_decide); within `decisions_shared`, the answer already given for the same draws."""
    shared = _SHARED.get()
    if shared is None or spreads is not None or checkpoint is not None:
        return _decide(evaluation, samples, seed, spreads, precision, checkpoint)
    fixed = evaluation.policy.random_seed if seed is None else seed
    key = (evaluation.model_dump_json(), samples, fixed, precision)
    if key not in shared:
        shared[key] = _decide(evaluation, samples, seed, spreads, precision, checkpoint)
    return shared[key]


def _decide(
    evaluation: Evaluation,
    samples: int,
    seed: int | None,
    spreads: Spreads | None,
    precision: float | None,
    checkpoint: Callable[[], None] | None,
) -> Decided:
    """The scorecard ranked on the policy's decision basis, and the Monte Carlo behind it.

    The draws are set up from the point scorecard; when the decision changes the first-ranked bid
    the same draws are tallied again for the decided one (common random numbers: what a second
    run from the decided scorecard would give), so "beats the leader" and the rank stability
    refer to the bid recommended. `checkpoint` is called before each block of bids of each
    pass of draws, after the point scoring and after the set-up (the app's worker raises there
    when a newer edit supersedes this one).

    With a deadline, a bid whose point estimate finishes late is drawn too: the deadline gate
    is the share of draws that finish in time against the plan's deadline_confidence.
    `samples` and `precision` as run_monte_carlo takes them (issue 32: at most `samples`)."""
    deadline = evaluation.workload.plan.deadline is not None  # draw the bids late only at the point
    point = score_evaluation(
        evaluation, on_time={bid.id: None for bid in evaluation.bids} if deadline else None
    )
    if checkpoint is not None:  # an edit that superseded this run stops it before any draw
        checkpoint()
    how = {"spreads": spreads, "precision": precision, "checkpoint": checkpoint}  # both runs'
    drawn, kept = monte_carlo_kept(evaluation, samples, seed, scorecard=point, **how)
    if kept is None or not drawn.bids:
        return score_evaluation(evaluation), drawn
    basis = evaluation.policy.decision_basis
    costs = {bid_id: b.decision_cost(basis) for bid_id, b in drawn.bids.items()}
    on_time = {bid_id: b.on_time_probability for bid_id, b in drawn.bids.items()}
    decided = score_evaluation(evaluation, costs, basis, on_time)
    if [s.bid.id for s in decided.ranked] == [s.bid.id for s in point.ranked]:
        return decided, drawn
    again = tallied_for(kept, drawn.seed, decided, precision)
    if again is None:  # a bid drawn only in the decided ranking (none today): draw them all again
        again = run_monte_carlo(evaluation, samples, seed, scorecard=decided, **how)
    return decided, again
