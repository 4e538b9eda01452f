"""The memo's two tables over the criteria: the bid-by-criterion matrix with each weight in its
header (methodology section 6), and how far each weight can move before another bid wins.

Apart from content.py (everything else the memo says) because both are read straight from the
criteria table (core/criteria.py) and the tipping points, and the single-tables test reads the
matrix's header alone."""

from __future__ import annotations

from typing import Any

from clusterbid.core.criteria import criterion_words
from clusterbid.core.memo.bid_words import bid_names
from clusterbid.core.provider_rating import criteria_in_view
from clusterbid.core.scoring import Scorecard

Rows = tuple[tuple[str, ...], ...]  # a table's rows as the memo prints them, header first


CRITERIA_WORDS = criterion_words()  # core/criteria.py


def criteria_rows(scorecard: Scorecard) -> Rows:
    """The bid-by-criterion matrix: each criterion scored 0 to 1 (1 best), its weight in the
    header, and the weighted total that ranks (methodology section 6)."""
    # Issue 39: the third-party rating shows once the policy weighs it or a rating is recorded.
    names = criteria_in_view(
        CRITERIA_WORDS, scorecard.weights, scorecard.evaluation.provider_ratings
    )
    header = (
        "#",
        "Bid",
        *(f"{CRITERIA_WORDS[n]} ({scorecard.weights[n]:.0%})" for n in names),
        "Score",
    )
    rows = [header]
    bids = bid_names(scorecard.scores)  # the provider; its GPU model only when it made two bids
    for score in scorecard.ranked:
        rows.append(
            (
                str(score.rank),
                bids[score.bid.id],
                *(f"{score.criteria[n]:.2f}" for n in names),
                f"{score.weighted_score:.3f}",
            )
        )
    return tuple(rows)


def _weight_text(value: float) -> str:
    """A raw weight as printed: never "-0" (a bound that rounds to zero is zero)."""
    return f"{max(value, 0.0) + 0.0:.3g}"


def tipping_rows(sensitivity: Any, scorecard: Scorecard) -> Rows | None:
    """Per non-cost weight: how far it can move (0..100 raw) before another bid overtakes the
    winner, the rival named by its provider (bid_words.py), as approvers know it."""
    if sensitivity is None:
        return None
    bid_words = bid_names(scorecard.scores)
    rows = [("Weight", "Now", "The winner holds from", "Below that", "Above that")]
    for weight, point in sorted(sensitivity.tipping_points.items()):
        lower = "0 (holds)" if point.lower is None else _weight_text(point.lower)
        upper = "100 (holds)" if point.upper is None else _weight_text(point.upper)
        below = "-" if point.lower is None else bid_words.get(point.winner_below or "", "-")
        above = "-" if point.upper is None else bid_words.get(point.winner_above or "", "-")
        rows.append(
            (
                CRITERIA_WORDS.get(weight, weight),
                _weight_text(point.current),
                f"{lower} to {upper}",
                below if below == "-" else f"{below} wins",
                above if above == "-" else f"{above} wins",
            )
        )
    return tuple(rows)
