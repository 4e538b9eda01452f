"""Page 1 rows of the serving memo that match the training memo's (issue 34, item 4): what ranked
the bids, the rivals with their commitments, the recommended bid's commitment, and one line for
what nobody verified. Words only; serving_memo.py lays them out."""

from __future__ import annotations

from clusterbid.core.evidence.model import EvidenceGrade
from clusterbid.core.memo.bid_words import bid_label
from clusterbid.core.memo.serving_printed import approval_monthly
from clusterbid.core.money import format_money
from clusterbid.core.ranking import BidScore
from clusterbid.core.serving_scoring import ServingScorecard

SHORT_BASIS = {
    "expected": "expected cost per million output tokens (the mean)",
    "p50": "median cost per million output tokens (P50)",
}


def _name(score: BidScore) -> str:
    return bid_label(score.bid)  # the officer's words, never the evaluation's id (issue 38)


def commitment(scorecard: ServingScorecard, score: BidScore) -> float:
    """What the signature commits to for `score`: the monthly bill the approval is sized at, times
    the reserved months (one month when on demand)."""
    months = score.bid.terms.term_months
    return float(approval_monthly(scorecard, score.estimate)) * (months or 1)


def commitment_words(scorecard: ServingScorecard, score: BidScore) -> str:
    months = score.bid.terms.term_months
    amount = format_money(commitment(scorecard, score), scorecard.evaluation.currency)
    return (
        f"commits {amount} ({months} months reserved)"
        if months
        else f"commits {amount} a month (on demand)"
    )


def basis_row(scorecard: ServingScorecard, chosen: BidScore) -> str:
    """What ranked the bids and where the point figure sits among the draws that serve."""
    currency = scorecard.evaluation.currency
    point = format_money(chosen.estimate.cost_per_million_tokens, currency, cents=True)
    band = scorecard.band(chosen.bid.id)
    if band is None or scorecard.decision_basis == "point":
        return f"ranked on the point estimate of the cost per million output tokens: {point}"
    # Where the point sits among the draws is in the Uncertainty row just below: not said twice.
    ranked_on = format_money(
        scorecard.decision_costs.get(chosen.bid.id, float("nan")), currency, cents=True
    )
    words = SHORT_BASIS.get(scorecard.decision_basis, scorecard.decision_words)
    return f"ranked on the {words}: {ranked_on}; point estimate {point}"


def rivals_row(scorecard: ServingScorecard, chosen: BidScore) -> str:
    """The rival likeliest to cost less than the recommended bid in the draws (pairwise, against
    the bid actually recommended) and the next by score, each with its cost per million tokens,
    monthly bill, commitment and that chance. Beyond PAIRWISE_MAX_BIDS bids the draws keep only
    who is cheapest of all, and the row says so."""
    others = [s for s in scorecard.ranked if s is not chosen]
    if not others:
        return "none (only one bid serves within the targets)"
    currency = scorecard.evaluation.currency
    draws = scorecard.uncertainty
    pairwise = (
        {s.bid.id: draws.chance_cheaper(s.bid.id, chosen.bid.id) for s in others} if draws else {}
    )

    def line(other: BidScore, role: str) -> str:
        e = other.estimate
        text = (
            f"{_name(other)} ({role}): "
            f"{format_money(e.cost_per_million_tokens, currency, cents=True)} per "
            f"million tokens, {format_money(e.monthly_cost, currency)} a month, "
            f"{commitment_words(scorecard, other)}"
        )
        if pairwise.get(other.bid.id) is not None:
            return (
                text
                + f", costs less than {_name(chosen)} in {pairwise[other.bid.id]:.1%} of the draws"
            )
        band = scorecard.band(other.bid.id)
        return text + (
            f", the cheapest of all in {band.chance_cheapest:.0%} of the draws" if band else ""
        )

    by_score = others[0]
    if any(v is not None for v in pairwise.values()):
        likeliest = max(others, key=lambda s: pairwise.get(s.bid.id) or 0.0)
        if likeliest is by_score:
            return line(by_score, "next by score and likeliest to cost less")
        return line(likeliest, "likeliest to cost less") + "; " + line(by_score, "next by score")
    chances = {
        s.bid.id: (scorecard.band(s.bid.id).chance_cheapest if scorecard.band(s.bid.id) else -1.0)
        for s in others
    }
    likeliest = max(others, key=lambda s: chances[s.bid.id])
    if chances[likeliest.bid.id] < 0 or likeliest is by_score:
        return line(
            by_score,
            "next by score" + ("" if chances[by_score.bid.id] < 0 else " and most often cheapest"),
        )
    return line(likeliest, "most often cheapest") + "; " + line(by_score, "next by score")


# The serving memo's sections after the ranked comparison (serving_memo.py lays them out): the
# frontier chart, printed only when a bid can serve, then what was not verified.
FRONTIER_SECTION = 4


def unverified_section(scorecard: ServingScorecard) -> int:
    """The number of the memo's "What was not verified" section."""
    return FRONTIER_SECTION + 1 if scorecard.ranked else FRONTIER_SECTION


def not_verified_row(scorecard: ServingScorecard, chosen: BidScore) -> str:
    """How many passing bids rest on a throughput nobody measured independently, and the one
    question most worth asking of the recommended bid (what was not verified has every bid's)."""
    ranked = scorecard.ranked
    unmeasured = [
        s
        for s in ranked
        if s.estimate.throughput_evidence is None
        or s.estimate.throughput_evidence.grade is not EvidenceGrade.MEASURED_INDEPENDENT
    ]
    text = (
        f"{len(unmeasured)} of {len(ranked)} passing bids rest on a throughput nobody measured "
        "independently"
    )
    if chosen in unmeasured:
        ask = (
            "ask for measured output tokens per second at the proposed batch and latency"
            if chosen.estimate.throughput_evidence is None
            else "ask for the benchmark's raw log and settings"
        )
        text += (
            f". Most worth asking {_name(chosen)}: {ask} (section {unverified_section(scorecard)})"
        )
    return text
