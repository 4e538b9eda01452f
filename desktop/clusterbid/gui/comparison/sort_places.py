"""The comparison table's order: each column's sort key, each row's place in a column's order,
and rows sorted by their places as Qt's sort proxy sorted them, in one Python sort (issue 32)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cmp_to_key
from typing import TYPE_CHECKING, Any

from clusterbid.core.comparison_table import (
    BAND,
    BLOCK,
    COMMITMENT,
    COST,
    FINDINGS,
    GOODPUT,
    MFU,
    PRICE,
    RANK,
    SCORE,
    TIME,
    USEFUL_PRICE,
    WIN,
)

if TYPE_CHECKING:
    from clusterbid.core.costmodel.estimate import BidEstimate
    from clusterbid.core.ranking import BidScore
    from clusterbid.core.uncertainty.montecarlo import BidUncertainty

MISSING = float("inf")  # an excluded bid's figure, or a band not yet known: sorted last


# The figure a passing bid is ordered by, ascending best first (an excluded bid's: MISSING).
_FIGURES: dict[int, Callable[[BidScore[BidEstimate]], object]] = {
    RANK: lambda s: s.rank,
    SCORE: lambda s: -(s.weighted_score or 0.0),
    MFU: lambda s: s.estimate.effective_mfu,
    GOODPUT: lambda s: s.estimate.goodput,
    TIME: lambda s: s.estimate.wall_hours,
    COST: lambda s: s.estimate.plan_cost,
    COMMITMENT: lambda s: s.estimate.commitment,
    USEFUL_PRICE: lambda s: s.estimate.effective_price_per_useful_gpu_hour,
}


def column_keys(
    scores: Sequence[BidScore[BidEstimate]],
    column: int,
    uncertainty_of: Callable[[BidScore[BidEstimate]], BidUncertainty | None],
    text_of: Callable[[int], str],
) -> list[object]:
    """What each bid (in `scores`' order) is ordered by in `column`: its figure, its band's P50
    or chance of being cheapest, or its cell's text (`text_of` its row) without case. One pass
    over the bids per column (issue 32: a method call a bid before)."""
    if column == PRICE:
        return [s.estimate.price_per_gpu_hour for s in scores]
    if column == BLOCK:
        return [s.bid.capacity.largest_contiguous_block_gpus for s in scores]
    if column == FINDINGS:
        return [len(s.estimate.gates) * 1000 + len(s.estimate.warnings) for s in scores]
    if column in _FIGURES:
        figure = _FIGURES[column]
        return [MISSING if s.rank is None else figure(s) for s in scores]
    if column in (BAND, WIN):
        return [_band_key(s, column, uncertainty_of(s)) for s in scores]
    return [text_of(row).casefold() for row in range(len(scores))]


def _band_key(score: BidScore[BidEstimate], column: int, u: BidUncertainty | None) -> float:
    if score.rank is None or u is None:
        return MISSING
    return u.cost_p50 if column == BAND else -u.win_probability


def _less(a: object, b: object) -> bool:
    """Keys of one kind compare as they are; a number against a text compares their texts."""
    try:
        return bool(a < b)  # type: ignore[operator]
    except TypeError:
        return str(a) < str(b)


def order_places(keys: list[Any]) -> list[int]:
    """Each key's place in ascending order (0 first); equal keys share one place, so a stable
    sort on the places orders rows exactly as one on the keys, ties included."""
    rows = list(range(len(keys)))
    try:
        rows.sort(key=lambda row: keys[row])
    except TypeError:  # mixed kinds: the comparison the table always used

        def compare(i: int, j: int) -> int:
            return -1 if _less(keys[i], keys[j]) else int(_less(keys[j], keys[i]))

        rows.sort(key=cmp_to_key(compare))
    places = [0] * len(keys)
    place = 0
    for before, row in zip([None, *rows], rows):
        if before is not None and _less(keys[before], keys[row]):
            place += 1
        places[row] = place
    return places


def sorted_rows(rows: list[int], places: list[int], descending: bool) -> list[int]:
    """`rows` (scorecard rows, as shown) ordered by their places, stably in either direction:
    equal places keep the order they had in `rows`, as Qt's sort proxy kept them (its
    std::stable_sort with lessThan ascending, with lessThan reversed descending)."""
    return sorted(rows, key=places.__getitem__, reverse=descending)


def in_order(rows: list[int], places: list[int], descending: bool) -> bool:
    """Whether `rows` already follow their places (ties in any order), ascending or descending."""
    shown = [places[row] for row in rows]
    if descending:
        return all(earlier >= later for earlier, later in zip(shown, shown[1:]))
    return all(earlier <= later for earlier, later in zip(shown, shown[1:]))
