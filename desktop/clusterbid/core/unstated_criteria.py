"""Scored criteria a bid leaves blank: the data-centre tier and the security certifications.

A tier the bid does not state scores 0, as does a required certification it does not name (a figure
left out never helps a bid, as for the reliability defaults). That is cautious, but it can decide
the rank: the same bid typed with its facility can rank several places higher. So each blank one is
named where ranks are read ("rank rests on", the memo's bid page) when stating it at its best could
move the bid's rank, and the rank it would reach is given.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from clusterbid.core.bid import Bid
    from clusterbid.core.scoring import Scorecard

# Words where an officer reads them, by criterion name.
CRITERION_WORDS = {
    "datacenter_tier": "data-centre tier (not stated)",
    "certifications": "certifications (none stated)",
}


@dataclass(frozen=True, slots=True)
class UnstatedCriterion:
    """One scored criterion the bid leaves blank, and the rank the bid would reach were it stated
    at its best (tier IV, every required certification)."""

    criterion: str
    rank: int | None  # the bid's rank as scored (None: excluded by a gate)
    rank_if_stated: int | None

    @property
    def words(self) -> str:
        return CRITERION_WORDS[self.criterion]

    @property
    def moves_rank(self) -> bool:
        return self.rank != self.rank_if_stated


def unstated(bid: Bid, required_certifications: tuple[str, ...]) -> list[str]:
    """The facility criteria the bid does not state (criterion names, in scoring order)."""
    names = []
    if bid.facility.datacenter_tier is None:
        names.append("datacenter_tier")
    # An empty list is what the wizard, the sheet and the memo call "none stated": a bid that holds
    # none of the required ones scores the same, so the flag never flatters it.
    if required_certifications and not bid.facility.certifications:
        names.append("certifications")
    return names


def unstated_criteria(scorecard: Scorecard) -> dict[str, list[UnstatedCriterion]]:
    """Bid id -> its blank facility criteria, with the rank the bid would reach were all of them
    stated at their best at once. Only the blank criteria move: every other bid keeps its score
    (ties broken by cost, as the ranking does)."""
    required = scorecard.evaluation.policy.required_certifications
    ranked = scorecard.ranked
    result: dict[str, list[UnstatedCriterion]] = {}
    for score in scorecard.scores:
        names = unstated(score.bid, required)
        if not names:
            continue
        rank_if_stated = None
        if score.rank is not None and score.weighted_score is not None:
            best = score.weighted_score + sum(
                scorecard.weights.get(name, 0.0) * (1.0 - score.criteria.get(name, 0.0))
                for name in names
            )
            cost = scorecard.decision_cost(score)
            rank_if_stated = 1 + sum(
                1
                for other in ranked
                if other is not score
                and other.weighted_score is not None
                and (
                    other.weighted_score > best
                    or (other.weighted_score == best and scorecard.decision_cost(other) < cost)
                )
            )
        result[score.bid.id] = [
            UnstatedCriterion(name, score.rank, rank_if_stated) for name in names
        ]
    return result


def unstated_lines(found: list[UnstatedCriterion]) -> list[str]:
    """The memo's words for one bid: what is blank, how it was scored, and what stating it could do."""
    if not found or found[0].rank is None:
        return []  # excluded by a gate: the facility line already says what is blank
    blank = {item.criterion for item in found}
    what = " and ".join(
        words
        for name, words in (
            ("datacenter_tier", "the data-centre tier (scored as tier I)"),
            ("certifications", "its certifications (each required one scored as not held)"),
        )
        if name in blank
    )
    item = found[0]
    outcome = (
        f"stated at their best the bid would rank {item.rank_if_stated}, not {item.rank}: ask the "
        "provider before deciding"
        if item.moves_rank
        else f"stated at their best the bid would still rank {item.rank}"
    )
    return [f"Not stated: {what}; {outcome}."]
