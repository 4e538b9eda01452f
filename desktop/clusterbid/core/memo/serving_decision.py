"""Section 1 of the serving memo: the decision in key-value rows (the recommended bid, its cost
per million output tokens and monthly bill, its bands, the nearest tipping point, the runner-up)
and the note an officer's override prints.

Apart from serving_memo.py (which lays the memo out) because these rows are the memo's decision
in words, read by the layout and checked by the tests without building a PDF."""

from __future__ import annotations

from clusterbid.core.costmodel.payment_terms import per_million_cash_words
from clusterbid.core.costmodel.serving_bill_gpus import bill_words, counted
from clusterbid.core.costmodel.serving_growth_words import term_words
from clusterbid.core.evaluation import DECISION_SHORT
from clusterbid.core.memo.bid_words import bid_label, bid_names
from clusterbid.core.memo.inputs import RecommendationOverride
from clusterbid.core.memo.serving_page_one import basis_row, not_verified_row, rivals_row
from clusterbid.core.memo.serving_printed import approval_monthly
from clusterbid.core.ranking import BidScore
from clusterbid.core.report import format_money
from clusterbid.core.serving_scoring import ServingScorecard
from clusterbid.core.serving_words import band_text, fleet_text, sla_line, slo_text
from clusterbid.core.uncertainty.serving_tipping import serving_tipping_points
from clusterbid.core.uncertainty.tipping import WEIGHT_WORDS, weight_text


def _nearest_tipping(scorecard: ServingScorecard) -> str | None:
    """The weight closest (in raw points) to changing the winner, in words."""
    best = None
    for name, t in serving_tipping_points(scorecard).items():
        for edge, who in ((t.lower, t.winner_below), (t.upper, t.winner_above)):
            if edge is not None and (best is None or abs(edge - t.current) < best[0]):
                best = (abs(edge - t.current), name, t.current, edge, who)
    if best is None:
        return "no single weight within 0-100 changes the winner"
    _, name, current, edge, who = best
    rival = bid_names(scorecard.scores).get(who, who)  # by provider, as approvers know it
    return (
        f"the nearest tipping point: {WEIGHT_WORDS.get(name, name)} weight {current:g} -> "
        f"{weight_text(edge)} "
        f"makes {rival} the winner (each weight's range is in the score JSON)"
    )


def bid_name(score: BidScore) -> str:
    return bid_label(score.bid)  # the officer's words, never the evaluation's id (issue 38)


def decision_rows(
    scorecard: ServingScorecard, override: RecommendationOverride | None
) -> tuple[list, str]:
    """(key-value rows, override note) for section 1."""
    currency = scorecard.evaluation.currency
    ranked = scorecard.ranked
    if not ranked:
        return [("Recommended bid", "no bid can serve the workload within its latency targets")], ""
    first = ranked[0]
    chosen = next((s for s in ranked if override and s.bid.id == override.bid_id), first)
    e = chosen.estimate
    rows = [
        ("Recommended bid", bid_name(chosen)),
        (
            "Cost per million output tokens",
            format_money(e.cost_per_million_tokens, currency, cents=True)
            + ", "
            + per_million_cash_words(
                chosen.bid,
                e.cash_cost_per_million_tokens or 0.0,
                currency,
                scorecard.evaluation.workload,
            )
            + "; "
            + sla_line(e, currency),
        ),
        # Issue 37: a growing fleet's bill is the term's average month, beside its own GPUs.
        ("Monthly cost", bill_words(e, currency)),
        (
            "Sizing",
            f"{counted(e.replicas, 'replica')} of TP {e.tensor_parallel}, batch {e.batch} "
            f"({e.tpot_ms:.1f} ms per output token, first token in {e.ttft_ms:.0f} ms); "
            f"{e.replicas_for_mean:,} carry the stated peak's mean rate, the rest is queueing "
            "headroom, "
            f"the forecast margin and N+{scorecard.evaluation.workload.spare_replicas} "
            f"(P{scorecard.evaluation.workload.ttft_percentile:g} wait {e.queue_wait_ms:.0f} ms, "
            f"{e.slot_utilisation:.0%} of batch slots busy at peak)",
        ),
    ]
    if term_words(e, currency):  # issue 37: a growing service's months
        rows.append(("Over the term", term_words(e, currency) or ""))
    band = scorecard.band(e.bid.id)
    rows.append(
        ("Decision basis", basis_row(scorecard, chosen))
    )  # issue 34: the training memo's rows
    if band is not None and band.chance_servable > 0:
        rows.append(
            (
                "Uncertainty",
                band_text(band, currency) + " (MBU and compute efficiency sampled; methodology 8)",
            )
        )
    nearest = _nearest_tipping(scorecard) if chosen is first else None
    if nearest:
        rows.append(("Weights", nearest))
    others = [s for s in ranked if s is not chosen]
    if others:
        rows.append(("Rivals", rivals_row(scorecard, chosen)))
        rows.append(("Margin", _margin(scorecard, chosen, others[0], currency)))
    if band is not None and band.fleet_at_percentile is not None:
        rows.append(
            ("Fleet for approval", fleet_text(band, currency, scorecard.evaluation.workload))
        )
    if slo_text(band, e):
        rows.append(("Targets at peak", slo_text(band, e) or ""))
    months = chosen.bid.terms.term_months
    monthly_approved = float(approval_monthly(scorecard, e))
    amount = monthly_approved * months if months else monthly_approved
    rows.append(
        (
            "Approval requested",
            f"{format_money(amount, currency, cents=True)} ({currency}), "
            + (
                f"{months} months reserved"
                if months
                else "per month, on demand (no reservation term)"
            )
            + (
                ", the reserved base plus the on-demand burst expected over the traffic profile"
                if e.bursts
                else ""
            ),
        )
    )
    rows.append(("Not verified", not_verified_row(scorecard, chosen)))
    note = ""
    if chosen is not first:
        note = (
            f"The model ranks {bid_name(first)} first. The officer recommends {bid_name(chosen)} "
            "instead, "
            f"because: {override.justification.strip()}"
        )
    return rows, note


def _margin(scorecard: ServingScorecard, chosen, rival, currency: str) -> str:
    """How much less (or more) the recommendation costs per million tokens than the next by score,
    on the figure the bids are ranked on (a tester read "1.8% dearer" at the point figures while
    the mean ranked it the cheaper), then the point figures' monthly bills an approver can check
    against the rows above. Cents per million tokens round too coarsely to subtract: a share."""
    e, other = chosen.estimate, rival.estimate
    mine = scorecard.decision_costs.get(chosen.bid.id, e.cost_per_million_tokens)
    theirs = scorecard.decision_costs.get(rival.bid.id, other.cost_per_million_tokens)
    basis = DECISION_SHORT.get(scorecard.decision_basis, "point figure")
    monthly = other.monthly_cost - e.monthly_cost
    return (
        f"{abs(theirs - mine) / theirs:.1%} {'cheaper' if theirs >= mine else 'dearer'} than "
        f"the next by score ({basis}); point bill {format_money(abs(monthly), currency)} a month "
        f"{'less' if monthly >= 0 else 'more'}"
    )
