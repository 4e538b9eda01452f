"""A bid's contract and what it bills for the buyer's plan, in the words every view prints
(score table, memo, app, export): one wording, written once."""

from __future__ import annotations

from typing import Any

from clusterbid.core.bid import Bid
from clusterbid.core.billing_kinds import spec_of
from clusterbid.core.costmodel.estimate import BidEstimate
from clusterbid.core.evaluation import DECISION_SHORT
from clusterbid.core.money import format_money
from clusterbid.core.plan import ComputePlan
from clusterbid.core.provenance import DOCUMENTED_DEFAULTS, effective_terms

IDLE_PLAN_SHORT = {
    "nothing": "worth nothing",
    "more-runs": "runs more jobs",
    "other-work": "does other work",
}


def billing_words(bid: Bid, currency: str | None = None) -> str:
    """The contract in one line: kind, quantity, span and price, exit terms. A fee or escalation
    the bid does not state is said to be so, with the cautious figure priced (issue 31), as are
    fees, billing steps and minimums. Money is in the contract's own currency whatever `currency`
    (the evaluation's) is: the memo prints the evaluation-currency figures beside it (issue 34)."""
    t = effective_terms(bid)
    unstated = {
        path.split(".")[1]
        for path, source in bid.provenance.items()
        if path.startswith("terms.") and not source.verified and source.kind != "assumption"
    }
    # The price as the contract states it, in its own currency (a EUR quote printed as "$2.64"
    # would misstate it); the evaluation-currency figures are beside it where they are used.
    price = format_money(float(t.price_per_gpu_hour), t.currency, cents=True)
    spec = spec_of(t.billing_kind)  # the words follow what the kind does (billing_kinds.py)
    text = _kind_words(bid, t, spec, price, unstated)
    if t.billing is None:
        text += " (billing kind not stated: inferred)"
    return text + _unstated_price_words(t, unstated)


def _kind_words(bid: Bid, t: Any, spec: Any, price: str, unstated: set[str]) -> str:
    """What the kind bills: per hour with its step and minimum, a span of reserved GPUs with its
    exit terms, a committed spend, or committed GPU-hours."""
    if not spec.commits:
        rounding = (
            f", billed in {t.billing_increment_hours:g}-hour steps"
            if t.billing_increment_hours
            else ", billed by the second"
        )
        minimum = (
            f", minimum {t.minimum_billed_hours:g} h per GPU" if t.minimum_billed_hours else ""
        )
        if "billing_increment_hours" in unstated:
            rounding += " (step not stated: priced hourly)"
        if "minimum_billed_hours" in unstated:
            minimum += " (minimum not stated: priced at 1 h)"
        text = f"{spec.page_name} at {price} per GPU-hour{rounding}{minimum}"
    elif spec.bills_for_a_span:
        span = f"a {t.block_days}-day block" if spec.needs_block_days else f"{t.term_months} months"
        gpus = f"{bid.billed_gpus:,} GPUs"
        if t.reserved_gpus is None:
            gpus += " (every offered GPU: the bid does not say how many are reserved)"
        text = f"{spec.page_name} of {gpus} x {span} at {price} per GPU-hour"
        if spec.may_exit_early:
            fee = f"{t.early_exit_fee_percent:g}% of the remaining term" + (
                " (fee not stated: priced as no exit until it is in writing)"
                if "early_exit_fee_percent" in unstated
                else ""
            )
            text += f"; early exit allowed at {fee}" if t.exit_clause else "; no early exit"
    elif spec.minimum == "spend":
        spend = format_money(float(t.committed_spend), t.currency)
        text = f"{spec.page_name} of {spend} over {t.term_months} months at {price} per GPU-hour"
    else:
        text = (
            f"committed {t.committed_gpu_hours:,.0f} GPU-hours over {t.term_months} months at "
            f"{price} per GPU-hour"
        )
    return text


def _unstated_price_words(t: Any, unstated: set[str]) -> str:
    """The escalation (stated, or the cautious figure priced) and the fees the bid leaves blank."""
    text = ""
    if (
        "price_escalation_percent_per_year" in unstated and t.term_months > 12
    ):  # it bites from year 2
        text += (
            f", escalation not stated (priced at {t.price_escalation_percent_per_year:g}% a year "
            "from the first anniversary)"
        )
    elif (
        "price_escalation_percent_per_year" not in unstated and t.price_escalation_percent_per_year
    ):
        text += f", rising {t.price_escalation_percent_per_year:g}% a year"
    fees = [
        (name, words)
        for name, words in (("one_off_fees", "one-off"), ("recurring_fees_per_month", "recurring"))
        if name in unstated
    ]
    if fees:
        shares = " and ".join(
            f"{DOCUMENTED_DEFAULTS['terms.' + name].value:g}% {words}" for name, words in fees
        )
        text += f", fees not stated (priced at {shares} of the GPU bill)"
    return text


def plan_words(plan: ComputePlan, currency: str) -> str:
    text = {
        "nothing": "idle reserved time is worth nothing to the buyer",
        "more-runs": "idle reserved time runs more jobs of the same kind",
        "other-work": "idle reserved time does other work worth "
        f"{format_money(float(plan.idle_value_per_gpu_hour or 0), currency, cents=True)} per "
        "GPU-hour",
    }[plan.idle_use]
    if plan.deadline:
        text += f"; the job must finish by {plan.deadline.isoformat()}"
    return text


def _idle_and_exit_rows(e: BidEstimate, money: Any) -> list[tuple[str, str]]:
    """The GPU-hours bought but idle, and leaving early, each only when it applies."""
    rows: list[tuple[str, str]] = []
    if e.idle_gpu_hours >= 0.5:
        rows.append(
            (
                "Idle GPU-hours bought",
                f"{e.idle_gpu_hours:,.0f}, valued at {money(e.idle_value)} under the plan",
            )
        )
    if e.leaves_early:
        rows.append(
            (
                "Early exit",
                f"leaving after the job costs {money(e.exit_cost)}, less than keeping the term",
            )
        )
    return rows


def _net_cost_parts(e: BidEstimate, money: Any) -> str:
    """What the net cost holds besides the GPU bill: cost of cash, claimable SLA credit, late
    handover remedies."""
    # Issue 31: the payment terms' cost of cash is in the net cost; said where it is (payment_terms.py).
    cash = (
        f"; {money(e.cash_cost)} of it the cost of cash of the payment terms"
        if e.cash_cost >= 0.5
        else f"; {money(-e.cash_cost)} saved in cost of cash by the payment terms"
        if e.cash_cost <= -0.5
        else ""
    )
    # Issue 39: the SLA credit counted is what can be claimed, never the headline; remedies for a
    # late handover (0 at the stated dates) likewise lower the net cost.
    if e.sla_headline_credit >= 0.5:
        unstated = ", claim terms not stated" if e.bid.sla_claims.not_stated() else ""
        cash += (
            f"; less {money(e.sla_credit)} SLA credit claimable (headline "
            f"{money(e.sla_headline_credit)}{unstated})"
        )
    if e.late_remedy >= 0.5:
        cash += f"; less {money(e.late_remedy)} owed for the late handover"
    return cash


def _net_cost_rows(
    e: BidEstimate, money: Any, ranked_on: tuple[str, float] | None, decided: bool
) -> list[tuple[str, str]]:
    """The net cost of the plan, and what the bids rank on where it is not this point. Issue 31:
    once the bands are in (`decided`), the bids rank on the expected (or median) net cost: saying
    the point ranks them would send the officer to a figure that does not decide."""
    ranks = "the point estimate" if decided else "ranks the bids"
    rows = [("Net cost of the plan", f"{money(e.plan_cost)} ({ranks}{_net_cost_parts(e, money)})")]
    if ranked_on is not None:
        rows.append(("Ranked on", f"{money(ranked_on[1])}, the {ranked_on[0]}"))
    return rows


def contract_lines(
    e: BidEstimate,
    currency: str,
    cents: bool = False,
    ranked_on: tuple[str, float] | None = None,
    ranked_row: bool = True,
) -> list[tuple[str, str]]:
    """(label, value) rows of a passing bid's commercial figures, commitment first; `cents` for
    the app's panes (the memo's bid pages keep whole units). `ranked_on`: (words, figure) of what
    the bids rank on once the Monte Carlo has run (decision_figure); None: the point ranks.
    `ranked_row`: add a row of its own for that figure (the memo says it beside the bands)."""
    money = lambda amount: format_money(amount, currency, cents=cents)  # noqa: E731
    rows = [
        ("Contract", billing_words(e.bid, currency)),
        ("Total commitment", f"{money(e.commitment)} (what the signature approves)"),
        (
            "Cost of the planned job",
            f"{money(e.job_cost)} ({e.used_gpu_hours:,.0f} GPU-hours used)",
        ),
        (
            "Commitment at risk",
            (
                f"{e.idle_gpu_hours / max(e.idle_gpu_hours + e.used_gpu_hours, 1e-9):.0%} of it "
                "idle, worth "
                f"{money(e.idle_value)} under the plan; {money(e.cost_if_plan_fails)} net if the "
                "plan fails"
            ),
        ),
    ]
    rows += _idle_and_exit_rows(e, money)
    rows += _net_cost_rows(e, money, ranked_on if ranked_row else None, ranked_on is not None)
    if e.jobs_in_commitment >= 1.05:
        rows.append(
            (
                "Jobs the commitment can finish",
                f"{e.jobs_in_commitment:,.2f}, {money(e.commitment / e.jobs_in_commitment)} each",
            )
        )
    finish = e.dates.finish.isoformat() if e.dates.finish else f"unknown ({e.dates.basis})"
    rows.append(("Finish date", finish))
    rows.append(
        (
            "Per useful GPU-hour",
            format_money(e.effective_price_per_useful_gpu_hour, currency, cents=True),
        )
    )
    return rows


def decision_figure(scorecard: Any, bid_id: str) -> tuple[str, float] | None:
    """(words, figure) of what `bid_id` ranked on, where the Monte Carlo decided the ranking."""
    if scorecard.decision_basis == "point" or bid_id not in scorecard.decision_costs:
        return None
    return scorecard.decision_words, scorecard.decision_costs[bid_id]


def bands_words(stats: Any, scorecard: Any, ranked: tuple[str, float] | None) -> str:
    """The bid's P10 / P50 / P90 net cost and, issue 31, the figure the bids rank on beside the
    bands it is read from (a row of its own would push a bid page over)."""
    money_text = lambda amount: format_money(amount, scorecard.evaluation.currency)  # noqa: E731
    spread = " / ".join(money_text(getattr(stats, k)) for k in ("cost_p10", "cost_p50", "cost_p90"))
    if ranked is None:
        return spread
    basis = DECISION_SHORT.get(scorecard.decision_basis, ranked[0])
    return f"{spread}; {basis} {money_text(ranked[1])} ranks the bids"
