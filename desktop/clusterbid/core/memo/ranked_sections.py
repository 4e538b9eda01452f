"""Section 3 of the memo: how the score was reached, the ranking, why the recommendation wins
and each price against public list prices."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from reportlab.lib.units import mm
from reportlab.platypus import CondPageBreak, Flowable, Spacer

from clusterbid.core.memo.content import MemoContent
from clusterbid.core.memo.flowables import TABLE_START, grid, keep_together_if_it_fits, para
from clusterbid.core.memo.waterfall_table import waterfall_section


def comparison_table(c: MemoContent) -> list[Flowable]:
    """The criteria matrix and the ranking, one row per bid: each moves to the next page whole
    when it fits on one, else starts where it is and runs on (its header on every page)."""
    widths = [0.04, 0.19, 0.08, 0.07, 0.07, 0.08, 0.15, 0.065, 0.255]
    heading = para("3. Ranked comparison", "h1")
    opening: list[Flowable] = [heading]
    if len(c.criteria_rows) > 1:
        opening = [
            *keep_together_if_it_fits(
                [
                    heading,
                    para("How the score was reached", "h2"),
                    para(
                        "Each criterion scored from 0 to 1 (1 best; net plan cost: the cheapest "
                        "passing bid's cost / "
                        "this bid's), times the weight in its heading; the sum ranks the bids "
                        "(methodology section 6).",
                        "small",
                    ),
                    Spacer(1, 1 * mm),
                    grid(
                        c.criteria_rows, [0.04, 0.24, 0.1, 0.07, 0.09, 0.1, 0.08, 0.09, 0.09, 0.1]
                    ),
                ],
                room=TABLE_START,
            )
        ]
    ranking = keep_together_if_it_fits(
        [
            para(
                "Ranked by the weighted score; the net cost of the plan dominates (see the "
                "methodology). Excluded "
                "bids fail a gate and are not costed.",
                "small",
            ),
            Spacer(1, 2 * mm),
            grid(c.comparison_rows, widths),
        ],
        room=TABLE_START,
    )
    return [
        CondPageBreak(60 * mm),
        *opening,
        Spacer(1, 3 * mm),
        *ranking,
        *waterfall_section(c.waterfall_rows),
        *price_reasonableness(c.price_rows),
    ]


def price_reasonableness(rows: Sequence[Sequence[Any]]) -> list[Flowable]:
    """Each bid's sticker price against public on-demand list prices kept in the catalog; then the
    reference prices themselves, each once, with publisher, date and source."""
    bids = [rows[0]] + [r for r in rows[1:] if r[0]]
    references = [r for r in rows[1:] if not r[0]]
    if len(bids) < 2:
        return []
    listed = [("GPU", "USD per GPU-h", "Public on-demand list price: who, as of, source")]
    listed += [(gpu, price, text) for _, gpu, price, text in references]
    return [
        *keep_together_if_it_fits(
            [
                para("Price reasonableness", "h2"),
                para(
                    "Each bid's price per GPU-hour against providers' public on-demand list prices "
                    "for the same GPU, kept "
                    "with their source and date in the catalog (reference_prices.toml). A "
                    "committed term is usually below "
                    "on-demand; far below or above is a question for the provider.",
                    "small",
                ),
                Spacer(1, 1 * mm),
                grid(bids, [0.3, 0.14, 0.12, 0.44]),
            ],
            room=TABLE_START,
        ),
        # The references may start the next page: the bids' check is what is read with the ranking.
        Spacer(1, 1 * mm),
        grid(listed, [0.14, 0.12, 0.74]) if len(listed) > 1 else Spacer(1, 0),
    ]
