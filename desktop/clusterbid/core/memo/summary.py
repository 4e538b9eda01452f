"""Page 1's decision in figures and words: what a signature approves, the net cost on the decision
basis, the rivals, the trade-off and the schedule (issues 19, 31, 34), built from the scorecard."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from clusterbid.core.contract_summary import billing_words, plan_words
from clusterbid.core.memo import page_one
from clusterbid.core.memo.decision_checks import schedule_fit
from clusterbid.core.memo.inputs import RecommendationOverride
from clusterbid.core.memo.page_one import name as _name
from clusterbid.core.report import format_money
from clusterbid.core.scoring import BidScore, Scorecard

NOT_COMPUTED = "not computed"


@dataclass(frozen=True, slots=True)
class DecisionSummary:
    recommended: str  # "bid-id (Provider)"
    cost: str
    cost_band: str
    hours: str
    hours_band: str
    win_probability: str
    runner_up: str
    margin: str
    amount: str  # the total commitment, to the cent: what the signature approves
    term: str  # the contract in words
    currency: str
    override_note: str  # "" unless the officer overrode the model's first choice
    approval: str = (
        ""  # the one sentence a CFO signs: commitment, job cost, finish date, P90 ceiling
    )
    plan: str = ""  # the buyer's plan for idle reserved time, and the deadline
    schedule: str = ""  # the finish date against the plan's deadline, in words
    schedule_ok: bool = True  # False: flagged (a deadline missed, not checkable, or none to check)
    basis: str = ""  # issue 31: what ranked the bids, and the point figure's percentile
    tradeoff: tuple[str, ...] = ()  # issue 34: what a premium over cheaper passing bids buys
    at_risk: str = (
        ""  # the winner's idle share, its value under the plan, the cost if the plan fails
    )
    contract_money: str = ""  # the commitment in the contract's currency, when not the evaluation's


def _band(stats: Any, low: str, high: str, fmt) -> str:
    if stats is None:
        return f"P10-P90 band {NOT_COMPUTED}"
    return f"P10-P90: {fmt(getattr(stats, low))} to {fmt(getattr(stats, high))}"


def decision_summary(
    scorecard: Scorecard,
    uncertainty: Any,
    override: RecommendationOverride | None,
    rationale: str = "",
    odds_against: str | None = None,
) -> DecisionSummary:
    """Page 1's figures. `odds_against`: the bid the samples' "costs less than" counts compare
    with (the model's first unless the memo's maker ran them against an override)."""
    evaluation = scorecard.evaluation
    currency = evaluation.currency
    ranked = scorecard.ranked
    if not ranked:
        return _nothing_to_approve(currency)
    model_first = ranked[0]
    chosen = next((s for s in ranked if override and s.bid.id == override.bid_id), model_first)
    others = [s for s in ranked if s is not chosen]
    e = chosen.estimate
    stats = None if uncertainty is None else uncertainty.bids.get(chosen.bid.id)
    money_text = lambda amount: format_money(amount, currency)  # noqa: E731
    margin = _margin_words(scorecard, chosen, others, money_text)
    tradeoff = page_one.tradeoff(
        scorecard, chosen, rationale or (override.justification if override else ""), currency
    )
    override_note = _override_note(model_first, chosen, tradeoff, rationale, override)
    schedule = schedule_fit(chosen, scorecard)
    schedule["schedule"] += page_one.schedule_odds(stats, evaluation.workload.plan.deadline)
    return DecisionSummary(
        recommended=_name(chosen),
        cost=money_text(e.plan_cost),
        cost_band=_band(stats, "cost_p10", "cost_p90", money_text),
        hours=f"{e.wall_hours:,.1f} hours ({e.wall_hours / 24:,.1f} days)",
        hours_band=_band(stats, "hours_p10", "hours_p90", lambda h: f"{h:,.1f} h"),
        win_probability=_win_words(stats, uncertainty),
        runner_up=page_one.rivals(
            chosen, others, uncertainty, odds_against or model_first.bid.id, currency
        ),
        margin=margin,
        amount=format_money(e.commitment, currency, cents=True),
        term=billing_words(chosen.bid, currency),
        currency=currency,
        override_note=override_note,
        approval=_approval_sentence(chosen, stats, currency),
        plan=plan_words(evaluation.workload.plan, currency),
        basis=page_one.basis_words(scorecard, chosen, stats, currency),
        tradeoff=tradeoff,
        at_risk=page_one.commitment_at_risk(chosen, currency),
        contract_money=page_one.contract_money(scorecard, chosen),
        **schedule,
    )


def _nothing_to_approve(currency: str) -> DecisionSummary:
    """Page 1 when no bid passes the gates: dashes, and why there is nothing to approve."""
    none = "no bid passes the gates"
    return DecisionSummary(
        none,
        "-",
        "-",
        "-",
        "-",
        "-",
        "-",
        "-",
        "nothing",
        "-",
        currency,
        "",
        "Nothing to approve: " + none + ".",
    )


def _margin_words(
    scorecard: Scorecard, chosen: BidScore, others: list[BidScore], money_text: Any
) -> str:
    """How much less (or more) the recommendation costs than the next by score, on the basis."""
    if not others:
        return "-"
    by_score = others[0]
    difference = scorecard.decision_cost(by_score) - scorecard.decision_cost(chosen)
    relation = "less" if difference >= 0 else "more"
    return (
        f"{money_text(abs(difference))} {relation} than the next by score on the decision "
        "basis "
        f"({abs(difference) / scorecard.decision_cost(by_score):.1%}); weighted score "
        f"{chosen.weighted_score:.3f} vs {by_score.weighted_score:.3f}"
    )


def _override_note(
    model_first: BidScore,
    chosen: BidScore,
    tradeoff: tuple[str, ...],
    rationale: str,
    override: RecommendationOverride | None,
) -> str:
    """When the officer recommends another bid than the model's first: who, and why."""
    if chosen is model_first:
        return ""
    # The justification is printed once: as the trade-off's rationale if any.
    because = (
        "(the reason is the trade-off's rationale above)"
        if tradeoff and not rationale
        else (f"because: {override.justification.strip()}")
    )
    return (
        f"The model ranks {_name(model_first)} first. The officer recommends {_name(chosen)} "
        f"instead {because}"
    )


def _win_words(stats: Any, uncertainty: Any) -> str:
    """How often the recommendation comes out cheapest, and over which draws."""
    if stats is None:
        return NOT_COMPUTED
    return (
        f"{stats.win_probability:.0%} of {uncertainty.samples:,} simulated outcomes "
        f"(seed {uncertainty.seed}, as `clusterbid score`)"
    )


def _approval_sentence(chosen: BidScore, stats: Any, currency: str) -> str:
    """Commitment, the planned job's cost, the finish date and the P90 ceiling, in one sentence."""
    e = chosen.estimate
    days = f"{e.wall_hours / 24:,.1f} days"
    finish = (
        f"the job finishes about {e.dates.finish.isoformat()} ({days})"
        if e.dates.finish
        else f"the job takes {days} (finish date unknown)"
    )
    ceiling = "P90 ceiling not computed"
    if stats is not None:
        fixed = abs(stats.commitment_p90 - stats.commitment_p10) < 0.5
        ceiling = (
            "the commitment is fixed by the contract in every simulated outcome"
            if fixed
            else f"P90 ceiling on the commitment {format_money(stats.commitment_p90, currency)}"
        )
    return (
        f"Approve a total commitment of {format_money(e.commitment, currency, cents=True)} "
        f"({currency}) to "
        f"{chosen.bid.quote.provider} for {billing_words(chosen.bid, currency)}; "
        # The job's own GPU-hours, not its net cost (which adds the idle time's worth, cash and
        # credits): the old "the planned job costs" read as a second, smaller net cost.
        f"the planned job's own GPU-hours come to {format_money(e.job_cost, currency)} of it; "
        f"{finish}; "
        f"{ceiling}."
    )
