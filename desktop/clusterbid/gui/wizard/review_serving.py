"""The wizard's Review page for a serving bid: its cost per million output tokens and rank, and
every bid's beside it, in a service's words (the training page speaks of a planned job, its
commitment and days, which a service has not).

The figures are the serving scorecard's for the evaluation with this bid in it: each bid's point
estimate and the figure the ranks rest on (the mean or median of the Monte Carlo's draws, as the
policy says, as the serving window's "Ranked on" column shows; a review found the page calling
its ranks the point's order); a bid that cannot serve says why instead of a cost.
"""

from __future__ import annotations

import html
from typing import Any

from clusterbid.core.evaluation import DECISION_SHORT
from clusterbid.core.money import format_money

SUBTITLE = (
    "The whole bid, what a million output tokens of the service cost on it next to the other "
    "bids, and anything still to fix. Finish adds the bid to the evaluation."
)
PENDING = "The cost per million output tokens appears here once every problem is fixed."
SOURCE = (
    "Point estimates of ClusterBid's serving cost model at the workload's average traffic: the "
    "cost per million output tokens includes the cost of cash and the expected SLA credit; the "
    "bill is the provider's, at peak provisioning. Rank: the weighted score's order, its cost "
    "criterion on the ranked figure beside the point."
)
HEADERS = (
    "Rank",
    "Provider",
    "Ranked on",
    "Per million<br>output tokens",
    "Bill<br>a month",
    "GPUs<br>billed",
)


def preview_words(scorecard: Any, bid_id: str, currency: str) -> str:
    """The bid's line above the summary: its cost per million output tokens, bill and rank, or
    why it cannot serve."""
    mine = next(s for s in scorecard.scores if s.bid.id == bid_id)
    e = mine.estimate
    if mine.rank is None:
        reasons = "; ".join(g.message for g in e.gates)
        return f"The bid <b>cannot serve</b> the workload: {html.escape(reasons)}"
    return (
        f"<b>{format_money(e.cost_per_million_tokens, currency, cents=True)} per million output "
        f"tokens</b>, {format_money(e.monthly_cost, currency)} a month; ranked {mine.rank} of "
        f"{len(scorecard.ranked)} bids that can serve."
    )


def comparison_html(scorecard: Any, bid_id: str) -> str:
    """Every bid against the one being entered, in rank order, then those that cannot serve."""
    currency = scorecard.evaluation.currency
    rows = []
    for score in scorecard.scores:
        e = score.estimate
        weight = "b" if score.bid.id == bid_id else "span"
        name = html.escape(score.bid.quote.provider)
        provider = f"<td><{weight}>{name}</{weight}></td>"
        if score.rank is None:
            why = "; ".join(g.message for g in e.gates)
            rows.append(
                f"<tr><td>—</td>{provider}<td colspan='4'><i>cannot serve: "
                f"{html.escape(why)}</i></td></tr>"
            )
            continue
        ranked = scorecard.decision_costs.get(score.bid.id, e.cost_per_million_tokens)
        basis = DECISION_SHORT.get(scorecard.decision_basis, "point")
        cells = (
            f"{format_money(ranked, currency, cents=True)} {basis}",
            format_money(e.cost_per_million_tokens, currency, cents=True),
            format_money(e.monthly_cost, currency),
            f"{e.gpus_billed:,}",
        )
        rows.append(
            f"<tr><td>{score.rank}</td>{provider}"
            + "".join(f"<td align='right' style='white-space:nowrap'>{c}</td>" for c in cells)
            + "</tr>"
        )
    headers = "".join(f"<th style='white-space:nowrap'>{h}</th>" for h in HEADERS)
    return (
        f"<h4>Against the other bids</h4><table cellpadding='3'><tr>{headers}</tr>"
        + "".join(rows)
        + f"</table><p><small>{html.escape(SOURCE)}</small></p>"
    )
