"""Where one evaluator's weights could change their winner: per criterion, the share of their total
weight at which another bid would overtake the bid they rank first.

With criterion c at share t of the total and the other weights keeping their proportions, a bid's
total is t x s_c + (1 - t) x R, R being its total over the other criteria (their weights scaled to
sum to 1). Two bids' totals are straight lines in t, so the winner changes where the lines cross:
t* = (R_b - R_w) / ((s_cw - R_w) - (s_cb - R_b)), kept when it lies in 0-1 on the side where b
pulls ahead. The nearest such share to the evaluator's own is the tipping point reported.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from clusterbid.core.panel.divergence import weight_percent
from clusterbid.core.panel.model import COMPUTED, SCORE_RANGE, Judgement


@dataclass(frozen=True)
class Tipping:
    evaluator: str
    criterion: str
    winner: str
    overtaken_by: str
    share_now: float  # % of the evaluator's total
    share_at: float  # % at which `overtaken_by` would rank first instead


def _scores(
    judgement: Judgement, model_scores: Mapping[str, Mapping[str, float]]
) -> dict[str, dict[str, float]]:
    """bid -> criterion -> 0-1: the model's scores and the evaluator's own (read as 0-1)."""
    return {
        bid: {
            **{key: model_scores[bid][key] for key in COMPUTED},
            **{
                key: judgement.scores.get(key, {}).get(bid, 0.0) / SCORE_RANGE[1]
                for key in judgement.weights
                if key not in COMPUTED
            },
        }
        for bid in model_scores
    }


def tipping_points(
    evaluator: str,
    judgement: Judgement,
    ranking: tuple[str, ...],
    model_scores: Mapping[str, Mapping[str, float]],
) -> list[Tipping]:
    """For each criterion, the nearest share at which the evaluator's first bid is overtaken."""
    if len(ranking) < 2:
        return []
    shares = {key: value / 100.0 for key, value in weight_percent(judgement).items()}
    scores = _scores(judgement, model_scores)
    winner = ranking[0]
    found = []
    for criterion, now in shares.items():
        if now >= 1.0:  # no other weight to trade against
            continue

        def rest(bid: str, criterion: str = criterion, now: float = now) -> float:
            return sum(
                share * scores[bid].get(key, 0.0)
                for key, share in shares.items()
                if key != criterion
            ) / (1.0 - now)

        best: tuple[float, str] | None = None
        for rival in ranking[1:]:
            slope_w = scores[winner].get(criterion, 0.0) - rest(winner)
            slope_r = scores[rival].get(criterion, 0.0) - rest(rival)
            if slope_w == slope_r:
                continue
            at = (rest(rival) - rest(winner)) / (slope_w - slope_r)
            ahead_beyond = (slope_r > slope_w) == (at > now)  # the rival gains moving towards `at`
            if (
                0.0 <= at <= 1.0
                and at != now
                and ahead_beyond
                and (best is None or abs(at - now) < abs(best[0] - now))
            ):
                best = (at, rival)
        if best is not None:
            found.append(
                Tipping(evaluator, criterion, winner, best[1], 100.0 * now, 100.0 * best[0])
            )
    return found
