"""The figures a serving memo prints, as printed: what `clusterbid verify` compares and the memo's
inputs attachment records (memo/inputs.py reads them here, without importing the memo's layout).
"""

from __future__ import annotations

from clusterbid.core.memo.printed_figures import printed_figures
from clusterbid.core.report import format_money, money
from clusterbid.core.serving_scoring import ServingScorecard

# The decision basis as the band cell names it: "P50" beside its P10 and P90 lines, where the
# other places say "median" (evaluation.DECISION_SHORT).
RANKED_WORDS = {"expected": "mean", "p50": "P50"}


def approval_monthly(scorecard: ServingScorecard, e) -> str:
    """The monthly bill the approval is sized at (issue 31): the fleet at the buyer's percentile of
    the draws, never below the point estimate's own fleet."""
    band = scorecard.band(e.bid.id)
    drawn = band.fleet_at_percentile[2] if band is not None and band.fleet_at_percentile else 0.0
    return str(money(max(e.monthly_cost, drawn)))


def printed_serving_results(scorecard: ServingScorecard) -> dict:
    """Exactly the figures the serving memo prints, as printed, for `clusterbid verify` to compare."""

    def figures(e) -> dict:
        serves = e.passes_gates
        return {
            "cost_per_million_output_tokens": str(money(e.cost_per_million_tokens))
            if serves
            else None,
            "monthly_cost": str(money(e.monthly_cost)) if serves else None,
            "gpus_billed": e.gpus_billed if serves else None,
            "tensor_parallel": e.tensor_parallel if serves else None,
            "batch": e.batch if serves else None,
            "band": band_cell(scorecard, e.bid.id) if serves else None,
            "approval_monthly_cost": approval_monthly(scorecard, e) if serves else None,
        }

    return printed_figures(scorecard, figures)


def band_cell(scorecard: ServingScorecard, bid_id: str) -> str | None:
    """The figure the bids are ranked on (the mean or P50 of the draws), the P10-P90 cost per
    million output tokens and the chance of being cheapest, as printed. The ranked figure leads:
    beside the point figure above it, a bid listed first can show a higher point than the next."""
    band = scorecard.band(bid_id)
    if band is None or band.chance_servable == 0:
        return None
    currency = scorecard.evaluation.currency
    low, _, high = band.cost_per_million
    slo = band.chance_meets_slo_at_peak  # issue 37: nan when the bid was not costed
    basis = scorecard.decision_basis
    ranked = (
        f"{RANKED_WORDS[basis]} {format_money(band.decision_cost(basis), currency, cents=True)}, "
        "ranked\n"
        if basis in RANKED_WORDS
        else ""
    )
    return (
        f"{ranked}P10 {format_money(low, currency, cents=True)}\nP90 "
        f"{format_money(high, currency, cents=True)}\n"
        f"{band.chance_cheapest:.0%} cheapest"
        + ("" if slo != slo else f"\n{slo:.0%} on target at peak")
    )
