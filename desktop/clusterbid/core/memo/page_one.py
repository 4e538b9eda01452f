"""Page 1's record for a source-selection board (issues 31 and 34): the decision rule and where the
point figure sits in it, the rivals that matter against the bid actually recommended, what a
premium over a cheaper passing bid buys, the commitment at risk, what nobody verified, and the
money in the contract's own terms (page_one_terms.py, re-exported here). Words only; story.py
lays them out."""

from __future__ import annotations

import datetime as dt
from typing import Any

from clusterbid.core.billing_kinds import spec_of
from clusterbid.core.evaluation import DECISION_WORDS
from clusterbid.core.memo.bid_words import bid_label
from clusterbid.core.memo.page_one_terms import contract_money as contract_money
from clusterbid.core.memo.page_one_terms import expired_quotes as expired_quotes
from clusterbid.core.money import format_money
from clusterbid.core.provenance import effective_reliability, effective_terms
from clusterbid.core.scoring import BidScore, Scorecard, evidence_score

TIERS = {"basic": 0, "business": 1, "enterprise": 2}
SHORT_BASIS = {
    "expected": "expected net cost (the mean of the samples)",
    "p50": "median net cost (P50 of the samples)",
}


def name(score: BidScore) -> str:
    return bid_label(score.bid)  # the officer's words, never the evaluation's id (issue 38)


def basis_words(scorecard: Scorecard, chosen: BidScore, stats: Any, currency: str) -> str:
    """What ranked the bids (issue 31) and the percentile at which the point figure sits in the
    recommended bid's own samples: a point at its P10 is an optimistic figure, said so."""
    point = format_money(chosen.estimate.plan_cost, currency)
    if stats is None or scorecard.decision_basis == "point":
        return f"ranked on the {DECISION_WORDS['point']}: {point}"
    ranked_on = scorecard.decision_cost(chosen)
    return (
        f"ranked on the {SHORT_BASIS.get(scorecard.decision_basis, scorecard.decision_words)}: "
        f"{format_money(ranked_on, currency)}; the point "
        f"estimate {point} sits at P{100 * stats.point_percentile:.0f} of its own samples"
    )


def rivals(
    chosen: BidScore, others: list[BidScore], uncertainty: Any, odds_against: str, currency: str
) -> str:
    """The bid most likely to cost less than the recommended one, and the next by score, each with
    net cost, commitment and that chance. The chances are the share of samples in which the rival
    costs less than `odds_against`; against another bid than the one recommended they would
    answer another question, so they are not printed then."""
    if not others:
        return "none (only one bid passes the gates)"
    stats = getattr(uncertainty, "bids", None) or {}
    odds_known = odds_against == chosen.bid.id and all(o.bid.id in stats for o in others)
    by_score = others[0]
    likeliest = max(others, key=lambda o: stats[o.bid.id].beats_leader) if odds_known else None
    money = lambda amount: format_money(amount, currency)  # noqa: E731

    def line(other: BidScore, role: str) -> str:
        e = other.estimate
        text = (
            f"{name(other)} ({role}): net {money(e.plan_cost)}, commits {money(e.commitment)}, "
            f"{e.wall_hours / 24:,.1f} days"
        )
        if odds_known:
            text += (
                f", costs less than {name(chosen)} in {stats[other.bid.id].beats_leader:.1%} of "
                "samples"
            )
        return text

    if likeliest is None:
        against = next((name(o) for o in others if o.bid.id == odds_against), "another bid")
        why = (
            "no Monte Carlo was run"
            if not stats
            else f"the samples compare each bid with {against}, not with the bid recommended"
        )
        return line(by_score, "next by score") + f"; chance of costing less not computed ({why})"
    if likeliest is by_score:
        return line(by_score, "next by score and the likeliest to cost less")
    return line(likeliest, "likeliest to cost less") + "; " + line(by_score, "next by score")


def cheaper_bids(scorecard: Scorecard, chosen: BidScore) -> list[BidScore]:
    """Passing bids that cost less than the recommended one on the decision basis, cheapest first."""
    mine = scorecard.decision_cost(chosen)
    return sorted(
        (s for s in scorecard.ranked if s is not chosen and scorecard.decision_cost(s) < mine),
        key=scorecard.decision_cost,
    )


def advantages(
    chosen: BidScore,
    other: BidScore,
    required: tuple[str, ...],
    plan: Any = None,
    currency: str = "USD",
) -> list[str]:
    """Each criterion on which the recommended bid beats the cheaper one, in words a board reads."""
    mine, theirs = chosen.bid, other.bid
    words = []
    a, b = effective_reliability(mine), effective_reliability(theirs)
    if a.uptime_sla_percent > b.uptime_sla_percent:
        words.append(f"uptime SLA {a.uptime_sla_percent:g}% against {b.uptime_sla_percent:g}%")
    if a.sla_credit_percent > b.sla_credit_percent:
        words.append(f"SLA credits {a.sla_credit_percent:g}% against {b.sla_credit_percent:g}%")
    tier_a, tier_b = mine.facility.datacenter_tier or 0, theirs.facility.datacenter_tier or 0
    if tier_a > tier_b:
        words.append(f"data-centre tier {tier_a} against {tier_b or 'not stated'}")
    lacking = [
        c
        for c in required
        if c in mine.facility.certifications and c not in theirs.facility.certifications
    ]
    if lacking:
        # policy.required_certifications is a scored criterion; a must-have gates (must_haves.py)
        words.append(f"holds {', '.join(lacking)}, which the policy scores and the other lacks")
    if TIERS[mine.terms.support_tier] > TIERS[theirs.terms.support_tier]:
        words.append(f"{mine.terms.support_tier} support against {theirs.terms.support_tier}")
    # On demand, the buyer can leave at any hour: an exit right is no advantage against it.
    if spec_of(effective_terms(theirs).billing_kind).commits:
        if mine.terms.exit_clause and not theirs.terms.exit_clause:
            words.append("an early-exit right the other lacks")
        if mine.terms.next_gen_migration and not theirs.terms.next_gen_migration:
            words.append("a right to move to the next GPU generation")
    if evidence_score(mine) > evidence_score(theirs):
        words.append("more of its performance measured rather than stated")
    sooner = (other.estimate.wall_hours - chosen.estimate.wall_hours) / 24
    if sooner >= 1:
        words.append(
            f"finishes {sooner:,.0f} days sooner ({time_worth(chosen, other, plan, currency)})"
        )
    return words


def time_worth(chosen: BidScore, other: BidScore, plan: Any, currency: str) -> str:
    """What finishing sooner is worth under the plan: its cost of delay counts days past the
    deadline only, and that money is already inside each bid's net cost (so inside the premium)."""
    money = lambda amount: format_money(amount, currency)  # noqa: E731
    if plan is None or plan.delay_cost_per_day is None:
        return f"worth {money(0)}: the plan states no cost of delay"
    per_day = money(float(plan.delay_cost_per_day))
    saved = other.estimate.delay_cost - chosen.estimate.delay_cost
    if saved < 0.5:
        return (
            f"worth {money(0)}: the plan's cost of delay, {per_day} a day, counts only days past "
            f"its deadline of {plan.deadline}, and the other bid is not late at the point estimate"
        )
    return (
        f"worth {money(saved)} at the point estimate: the other bid runs past the plan's deadline "
        f"of {plan.deadline} at {per_day} a day, already counted in its net cost"
    )


def tradeoff(
    scorecard: Scorecard, chosen: BidScore, rationale: str, currency: str
) -> tuple[str, ...]:
    """One line per cheaper passing bid: the premium paid and what it buys; then the officer's
    rationale. Empty when the recommended bid is the cheapest passing one on the decision basis."""
    cheaper = cheaper_bids(scorecard, chosen)
    if not cheaper:
        return ()
    required = tuple(scorecard.evaluation.policy.required_certifications)
    lines = []
    for other in cheaper:
        premium = scorecard.decision_cost(chosen) - scorecard.decision_cost(other)
        bought = advantages(chosen, other, required, scorecard.evaluation.workload.plan, currency)
        lines.append(
            f"Against {name(other)}: {format_money(premium, currency)} more buys "
            + ("; ".join(bought) if bought else "nothing the criteria measure")
            + "."
        )
    lines.append("Officer's rationale for the premium: " + (rationale.strip() or "NOT GIVEN"))
    return tuple(lines)


def commitment_at_risk(chosen: BidScore, currency: str) -> str:
    """The winner's idle share, what the plan assumes it is worth, and the cost if the plan fails."""
    e = chosen.estimate
    bought = e.idle_gpu_hours + e.used_gpu_hours
    share = e.idle_gpu_hours / bought if bought > 0 else 0.0
    money = lambda amount: format_money(amount, currency)  # noqa: E731
    if e.idle_gpu_hours < 0.5:
        return f"none: the planned job uses all of the {money(e.commitment)} it commits"
    head = (
        f"{share:.0%} of the {money(e.commitment)} commitment buys idle time, worth "
        f"{money(e.idle_value)} "
        "under the plan"
    )
    if (
        abs(e.cost_if_plan_fails - e.plan_cost) < 0.5
    ):  # the plan values it at nothing: no "X, not X"
        return head + "; the net cost already counts it as lost, so a failed plan adds nothing"
    return (
        f"{head}; if the plan fails the net cost is {money(e.cost_if_plan_fails)}, not "
        f"{money(e.plan_cost)}"
    )


def schedule_odds(stats: Any, deadline: dt.date | None) -> str:
    """P(finish by the deadline) from the same samples (issue 31), or why it is not given."""
    if deadline is None:
        return ""
    chance = getattr(stats, "on_time_probability", float("nan"))
    if chance != chance:  # nan: no samples, or no start date to count from
        return "; chance of finishing by it not computed"
    return f"; finishes by it in {chance:.1%} of samples"


def not_verified(
    scorecard: Scorecard, unverified: tuple[str, ...], requests: tuple[str, ...]
) -> str:
    """Page 1's pointer to section 6: how many passing bids carry no measurement, and the single
    question most worth asking (the first value-of-information line, when one was computed)."""
    passing = scorecard.ranked
    bare = sum(1 for s in passing if not s.bid.evidence)
    text = (
        f"{bare} of {len(passing)} passing bids carry no measurement at all; {len(unverified)} "
        "figures "
        "are taken on trust (section 6)"
    )
    asks = [line for line in requests if not line.startswith("Request ")]
    return text + (
        f". Most worth asking: {asks[0]}" if asks else ". Value of information not computed"
    )
