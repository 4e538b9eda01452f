"""Where the panel disagrees: each evaluator's weights and scores, the spread, each evaluator's
ranking of the bids, the share of weight sets under which each bid wins, and Kendall's W.

Each evaluator ranks the bids that pass the gates with their own weights (normalised to sum to
1) over the model's criterion scores (the same for everyone: computed from the bids) and their
own 0-10 scores of the panel's criteria (read as 0-1). Ties go to the lower decision cost, as in
the model's ranking, so every ranking is strict. Kendall's W (Kendall and Babington Smith, 1939)
is 12 S / (m^2 (n^3 - n)) for m evaluators ranking n bids, S the sum of squared deviations of
each bid's rank sum from its mean m (n + 1) / 2: 1 when all rank alike, 0 when no order is shared.
"""

from __future__ import annotations

import statistics
from collections.abc import Mapping
from dataclasses import dataclass

from clusterbid.core.panel.model import COMPUTED, SCORE_RANGE, Invitation, Judgement

SCORE_DISPUTE = 3.0  # a spread of 3 points of 10 or more in one score is disputed
WEIGHT_DISPUTE = 10.0  # a spread of 10 percentage points or more in one normalised weight


@dataclass(frozen=True)
class Item:
    """One judged value across the panel: a criterion's weight (bid None) or a bid's score."""

    criterion: str
    bid: str | None
    values: dict[str, float]  # evaluator -> weight in % of their total, or score 0-10

    @property
    def key(self) -> str:
        return (
            f"weight:{self.criterion}" if self.bid is None else f"score:{self.criterion}:{self.bid}"
        )

    @property
    def spread(self) -> float:
        return max(self.values.values()) - min(self.values.values()) if self.values else 0.0

    @property
    def median(self) -> float:
        return float(statistics.median(self.values.values()))

    @property
    def disputed(self) -> bool:
        return len(self.values) > 1 and self.spread >= (
            WEIGHT_DISPUTE if self.bid is None else SCORE_DISPUTE
        )


@dataclass(frozen=True)
class Divergence:
    items: tuple[Item, ...]
    rankings: dict[str, tuple[str, ...]]  # evaluator -> bid ids, best first (complete judgements)
    incomplete: dict[str, str]  # evaluator -> what they have yet to score
    win_share: dict[str, float]  # bid id -> share of the ranking evaluators under whom it wins
    kendall_w: float | None  # None: fewer than two rankings or two bids

    @property
    def disputed(self) -> tuple[Item, ...]:
        return tuple(item for item in self.items if item.disputed)


def weight_percent(judgement: Judgement) -> dict[str, float]:
    total = sum(judgement.weights.values())
    return {key: 100.0 * value / total for key, value in judgement.weights.items()}


def kendall_w(rankings: list[tuple[str, ...]]) -> float | None:
    """Kendall's coefficient of concordance of strict rankings of the same items."""
    m = len(rankings)
    if m < 2 or len(rankings[0]) < 2:
        return None
    n = len(rankings[0])
    sums = {bid: 0 for bid in rankings[0]}
    for ranking in rankings:
        for rank, bid in enumerate(ranking, start=1):
            sums[bid] += rank
    mean = m * (n + 1) / 2
    s = sum((total - mean) ** 2 for total in sums.values())
    return 12 * s / (m * m * (n**3 - n))


def _missing(judgement: Judgement, invitation: Invitation, bids: list[str]) -> str:
    gaps = [
        f"{criterion} for {bid}"
        for criterion in invitation.criteria
        if judgement.weights.get(criterion, 0) > 0
        for bid in bids
        if bid not in judgement.scores.get(criterion, {})
    ]
    return ", ".join(gaps)


def ranking(
    judgement: Judgement,
    model_scores: Mapping[str, Mapping[str, float]],
    costs: Mapping[str, float],
) -> tuple[str, ...]:
    """The bids (those in `model_scores`, in its order) best first under one judgement."""
    share = {key: value / 100.0 for key, value in weight_percent(judgement).items()}
    top = SCORE_RANGE[1]

    def total(bid: str) -> float:
        computed = sum(share.get(key, 0.0) * model_scores[bid][key] for key in COMPUTED)
        panel = sum(
            share[key] * judgement.scores.get(key, {}).get(bid, 0.0) / top
            for key in share
            if key not in COMPUTED and share[key] > 0
        )
        return computed + panel

    order = list(model_scores)
    return tuple(
        sorted(
            order, key=lambda bid: (-round(total(bid), 12), costs.get(bid, 0.0), order.index(bid))
        )
    )


def divergence(
    panel: Mapping[str, tuple[Invitation, Judgement]],
    model_scores: Mapping[str, Mapping[str, float]],
    costs: Mapping[str, float],
    all_bids: list[str],
) -> Divergence:
    """`panel`: evaluator -> (invitation, judgement) as merged; `model_scores`: each bid that
    passes the gates -> its criterion scores 0-1; `costs`: the figure ties are broken on."""
    names = sorted(panel)
    criteria: list[str] = list(COMPUTED)
    for invitation, _ in panel.values():
        criteria += [c for c in invitation.criteria if c not in criteria]
    items = [
        Item(key, None, {n: weight_percent(panel[n][1]).get(key, 0.0) for n in names})
        for key in criteria
    ]
    for key in criteria[len(COMPUTED) :]:
        for bid in all_bids:
            values = {
                n: panel[n][1].scores[key][bid]
                for n in names
                if bid in panel[n][1].scores.get(key, {})
            }
            if values:
                items.append(Item(key, bid, values))
    rankings, incomplete = {}, {}
    for name in names:
        invitation, judgement = panel[name]
        gaps = _missing(judgement, invitation, list(model_scores))
        if gaps:
            incomplete[name] = gaps
        else:
            rankings[name] = ranking(judgement, model_scores, costs)
    wins = {bid: 0 for bid in model_scores}
    for order in rankings.values():
        wins[order[0]] += 1
    share = {bid: count / len(rankings) for bid, count in wins.items()} if rankings else {}
    return Divergence(tuple(items), rankings, incomplete, share, kendall_w(list(rankings.values())))
