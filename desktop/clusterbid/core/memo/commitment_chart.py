"""Commitment at risk as a small bar chart drawn by reportlab itself (issue 34 item 4): for each
passing bid, what it commits, its net plan cost under the buyer's plan, and what it costs if the
plan fails (idle time worth nothing; the exit cost is the floor where leaving is allowed). A
cheap net cost on a large commitment reads as what it is: a bet on the plan."""

from __future__ import annotations

from reportlab.graphics.shapes import Drawing, Line, Rect, String
from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import Flowable, Spacer

from clusterbid.core.memo import styles
from clusterbid.core.memo.bid_words import bid_names
from clusterbid.core.memo.flowables import W, keep_together_if_it_fits, para
from clusterbid.core.money import format_money
from clusterbid.core.scoring import Scorecard

Row = tuple[str, float, float, float]  # bid, net plan cost, cost if the plan fails, commitment
MOST_BARS = 10  # as the other charts: the ten leading bids
ROW_HEIGHT, LABEL_SHARE, TEXT_SIZE = 15.0, 0.18, 6.5


def commitment_rows(scorecard: Scorecard) -> tuple[Row, ...]:
    """The ranked bids' figures, in rank order, ten at most."""
    names = bid_names(scorecard.scores)  # by provider, as approvers know the bids
    return tuple(
        (
            names[s.bid.id],
            s.estimate.plan_cost,
            s.estimate.cost_if_plan_fails,
            s.estimate.commitment,
        )
        for s in scorecard.ranked[:MOST_BARS]
    )


def _label(name: str, width: float) -> str:
    """The provider's name cut to the label column with an ellipsis (a drawing does not wrap);
    the whole name is in the tables above."""
    if stringWidth(name, styles.FONT, 7) <= width:
        return name
    while name and stringWidth(name + "…", styles.FONT, 7) > width:
        name = name[:-1]
    return name.rstrip() + "…"


def _short(amount: float, currency: str) -> str:
    return format_money(amount, currency)


def commitment_chart(rows: tuple[Row, ...], currency: str) -> list[Flowable]:
    """Heading, one line of key, and one bar row per bid: the commitment as a pale bar, the net
    plan cost as a dark bar over it, and a red tick at the cost if the plan fails."""
    if len(rows) < 2:
        return []
    height = ROW_HEIGHT * len(rows) + 4
    drawing = Drawing(W, height)
    # The renderer's starting font would otherwise be Helvetica, set (and so listed in the PDF,
    # unembedded) even though no string uses it: every memo font is embedded.
    drawing.initialFontName, drawing.initialFontSize = styles.FONT, 7
    texts = [
        f"net {_short(net, currency)}; if the plan fails {_short(fails, currency)}; "
        f"commits {_short(commit, currency)}"
        for _, net, fails, commit in rows
    ]
    # The bars take what the longest figure line leaves, so no line runs into the margin.
    longest = max(stringWidth(text, styles.FONT, TEXT_SIZE) for text in texts)
    left = LABEL_SHARE * W
    width = max(W - left - longest - 6, 0.2 * W)
    top = max(max(commit, fails) for _, _, fails, commit in rows) or 1.0
    scale = width / top
    for index, ((bid, net, fails, commit), text) in enumerate(zip(rows, texts, strict=True)):
        y = height - ROW_HEIGHT * (index + 1)
        drawing.add(
            String(
                0,
                y + 4,
                _label(bid, left - 4),
                fontName=styles.FONT,
                fontSize=7,
                fillColor=styles.INK,
            )
        )
        drawing.add(Rect(left, y + 2, commit * scale, 9, fillColor=styles.RULE, strokeColor=None))
        drawing.add(Rect(left, y + 4, net * scale, 5, fillColor=styles.ACCENT, strokeColor=None))
        x = left + fails * scale
        drawing.add(Line(x, y + 0.5, x, y + 12.5, strokeColor=styles.WARN, strokeWidth=1.5))
        drawing.add(
            String(
                left + width + 6,
                y + 4,
                text,
                fontName=styles.FONT,
                fontSize=TEXT_SIZE,
                fillColor=styles.INK,
            )
        )
    return keep_together_if_it_fits(
        [
            para("Commitment at risk", "h2"),
            para(
                "Pale bar: what each contract commits (the amount signed for). Blue bar: net cost "
                "of the plan, "
                "idle time valued as the buyer's plan says. Red tick: the net cost if the plan "
                "fails and idle "
                "time is worth nothing (where the contract allows an early exit, leaving after the "
                "job is the "
                "floor).",
                "small",
            ),
            Spacer(1, 1 * mm),
            drawing,
        ],
        room=40 * mm,
    )
