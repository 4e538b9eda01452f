"""The Details pane's "Why the first-ranked bid wins" (issue 34): the waterfall core kept on the
decided scorecard, shown on the first- and second-ranked bids' details."""

from __future__ import annotations

from html import escape
from typing import TYPE_CHECKING

from clusterbid.core.money import format_money
from clusterbid.core.ranking import BidScore
from clusterbid.core.scoring import Scorecard
from clusterbid.core.uncertainty.waterfall import kept_waterfall
from clusterbid.core.uncertainty.waterfall import signed_money as signed

if TYPE_CHECKING:
    from clusterbid.core.costmodel.estimate import BidEstimate


def waterfall_html(scorecard: Scorecard, score: BidScore[BidEstimate], muted: str) -> str:
    """ "" for other bids; a note while the bands (and with them the waterfall) are on their way."""
    ranked = [s.bid.id for s in scorecard.ranked]
    if score.bid.id not in ranked[:2] or len(ranked) < 2:
        return ""
    found = kept_waterfall(scorecard)
    heading = "<h4>Why the first-ranked bid wins</h4>"
    if found is None:
        return heading + f"<p style='color:{muted}'>Shown once the Monte Carlo bands are in.</p>"
    currency = scorecard.evaluation.currency
    lines = [
        f"<p style='margin:4px 0'><b>{escape(found.runner_up)} (next by score):</b> "
        f"{escape(format_money(found.start, currency))}</p>"
    ]
    for part in found.parts:
        band = (
            f"P10 {signed(part.p10, currency)} to P90 {signed(part.p90, currency)}"
            if found.samples
            else "no draws"
        )
        lines.append(
            f"<p style='margin:4px 0'><b>{escape(part.name)}:</b> "
            f"{escape(signed(part.amount, currency))}"
            f"<br><small style='color:{muted}'>{escape(band)}</small></p>"
        )
    lines.append(
        f"<p style='margin:4px 0'><b>{escape(found.winner)} (first-ranked):</b> "
        f"{escape(format_money(found.end, currency))}</p>"
    )
    note = (
        "The first-ranked bid's figures swapped into the next bid's one group at a time, on the "
        "decision basis; a minus saves; the haircut is what the Monte Carlo draws add."
    )
    return heading + f"<p style='color:{muted}'>{escape(note)}</p>" + "".join(lines)
