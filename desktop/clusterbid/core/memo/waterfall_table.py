"""Page 2's "Why the recommendation wins" (issue 34, item 2): the waterfall from the runner-up's
net plan cost to the recommended bid's, one column per named part, with each part's P10-P90.

Laid out across the page (the parts as columns) so that it fits under the criteria matrix on
page 2 without pushing the ranking table onto page 3; the part names wrap between words only.
"""

from __future__ import annotations

from typing import Any

from reportlab.platypus import Flowable, KeepTogether, Spacer, TableStyle

from clusterbid.core.memo.bid_words import bid_names
from clusterbid.core.memo.flowables import grid, para
from clusterbid.core.money import format_money
from clusterbid.core.scoring import BidScore, Scorecard
from clusterbid.core.uncertainty.waterfall import Waterfall, waterfall
from clusterbid.core.uncertainty.waterfall import signed_money as signed

Rows = tuple[tuple[str, ...], ...]


def waterfall_rows(
    found: Waterfall | None,
    currency: str,
    runner_role: str = "Next by score",
    names: dict[str, str] | None = None,
) -> Rows:
    """Header (the runner-up, the parts, the recommended bid), the amounts (the ends with their
    bid, by `names`: bid id -> the officer's words), the P10-P90 bands; () without a waterfall
    (one passing bid, a serving evaluation)."""
    if found is None:
        return ()
    names = names or {}
    header = (runner_role, *(p.name for p in found.parts), "Recommended")
    amounts = (
        f"{names.get(found.runner_up, found.runner_up)}\n{format_money(found.start, currency)}",
        *(signed(p.amount, currency) for p in found.parts),
        f"{names.get(found.winner, found.winner)}\n{format_money(found.end, currency)}",
    )
    if found.samples:
        bands = (
            "P10 to P90",
            *(f"{signed(p.p10, currency)} to {signed(p.p90, currency)}" for p in found.parts),
            "",
        )
        return header, amounts, bands
    return header, amounts


def memo_waterfall_rows(scorecard: Scorecard, uncertainty: Any, chosen: BidScore | None) -> Rows:
    """The rows for the bid the memo recommends (an override's bid included)."""
    # Under an override the bid it is compared with is the model's first, and is called so.
    overridden = chosen is not None and scorecard.ranked and chosen is not scorecard.ranked[0]
    return waterfall_rows(
        waterfall(scorecard, uncertainty, chosen),
        scorecard.evaluation.currency,
        "Model's first" if overridden else "Next by score",
        bid_names(scorecard.scores),
    )


def waterfall_section(rows: Rows) -> list[Flowable]:
    if not rows:
        return []
    ends, parts = 0.13, len(rows[0]) - 2  # the ends name a bid by its provider (two lines at most)
    table = grid(rows, [ends, *[(1 - 2 * ends) / parts] * parts, ends])
    table.setStyle(
        TableStyle(
            [("TOPPADDING", (0, 0), (-1, -1), 1.5), ("BOTTOMPADDING", (0, 0), (-1, -1), 1.5)]
        )
    )
    # A caption, not a heading: the table then fits under the ranking on page 2 (the demo's).
    return [
        KeepTogether(
            [
                Spacer(1, 2),
                para(
                    "Why the recommendation wins, part by part (methodology section 7; a minus "
                    "saves):",
                    "small",
                ),
                table,
            ]
        )
    ]
