"""The cost of cash of a bid's payment terms (issue 31: payment terms priced, not only flagged).

Paying an invoice earlier than the buyer's usual terms ties up the buyer's money for the days
between; paying later frees it. Each day is worth the buyer's cost of capital, so a bid whose
invoices fall due d days after issue, against the buyer's baseline of B days, costs

    amount paid x cost of capital a year x (B - d) / 365

on top of its net cost (negative when the bid gives the buyer longer than its baseline). Every
invoice of the contract moves by the same B - d days, so the sum of the invoices is the amount:
how a term spreads its invoices over the months does not change the figure (simple interest,
the same for every bid; methodology section 9).

Terms a bid does not state are taken as due on invoice, the cautious end of 0-60 days (typical:
net 30), and the Monte Carlo draws them between due on invoice and net 30 (term_ranges.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np

from clusterbid.core.costmodel.real_arrays import floats
from clusterbid.core.money import format_money
from clusterbid.core.provenance.resolve import nobody_stated


class BuyersCashTerms(Protocol):
    """Where the buyer's two figures live: the training plan (plan.py) and the serving workload
    (serving_workload.py) carry the same two fields."""

    @property
    def cost_of_capital_percent_per_year(self) -> float | None: ...

    @property
    def baseline_payment_days(self) -> int | None: ...


DAYS_PER_YEAR = 365.0


@dataclass(frozen=True, slots=True)
class BuyerFigure:
    """A figure of the buyer's own finance: its default, the range it is moved across, and why."""

    value: float
    low: float
    high: float
    source: str


# The buyer's cost of capital when it gives none: a judgement near a large company's weighted
# average cost of capital (NYU Stern's yearly cost-of-capital tables by industry, A. Damodaran,
# are where a treasury finds its own), moved across 4-12% a year. The treasury's figure replaces it.
COST_OF_CAPITAL_DEFAULT = BuyerFigure(
    8.0,
    4.0,
    12.0,
    "ClusterBid default, a judgement near a typical corporate cost of capital "
    "(4-12% a year); give your treasury's figure",
)
# The buyer's own payment terms when it gives none: net 30, the common business-to-business norm.
BASELINE_PAYMENT_DAYS_DEFAULT = BuyerFigure(
    30.0,
    0.0,
    60.0,
    "ClusterBid default: net 30, the common business-to-business payment term",
)


def cash_cost_share(
    payment_days: np.ndarray | float, baseline_days: float, rate_per_year: float
) -> np.ndarray:
    """The share of an amount paid that paying it `payment_days` after invoice costs the buyer,
    against its baseline: positive when the bid is paid sooner, negative when later."""
    return rate_per_year * (baseline_days - floats(payment_days)) / DAYS_PER_YEAR


def plan_rate(plan: BuyersCashTerms) -> float:
    """The plan's cost of capital as a fraction a year (its default when the buyer gives none)."""
    stated = plan.cost_of_capital_percent_per_year
    return (COST_OF_CAPITAL_DEFAULT.value if stated is None else float(stated)) / 100.0


def plan_baseline_days(plan: BuyersCashTerms) -> float:
    """The buyer's usual payment terms in days after invoice (net 30 when it gives none)."""
    stated = plan.baseline_payment_days
    return BASELINE_PAYMENT_DAYS_DEFAULT.value if stated is None else float(stated)


def cash_words(plan: BuyersCashTerms) -> str:
    """How the cost of cash is priced, in words, with where each figure came from."""
    rate = plan_rate(plan) * 100.0
    days = plan_baseline_days(plan)
    rate_from = (
        "your figure" if plan.cost_of_capital_percent_per_year is not None else "ClusterBid default"
    )
    days_from = "your figure" if plan.baseline_payment_days is not None else "ClusterBid default"
    return (
        f"cost of cash at {rate:g}% a year ({rate_from}) for each day an invoice is paid before "
        f"your usual {days:g} days ({days_from})"
    )


def payment_line(payment_days: int | None, cash_cost: float, currency: str) -> str:
    """The payment terms as the memo's fee line says them, with what they cost in cash."""
    stated = (
        "payment terms not stated (priced as due on invoice"
        if payment_days is None
        else f"invoices due {payment_days} days after issue ("
    )
    if cash_cost >= 0.5:
        return f"{stated}: {format_money(cash_cost, currency)} cost of cash)"
    if cash_cost <= -0.5:
        return f"{stated}: {format_money(-cash_cost, currency)} saved in cost of cash)"
    return stated + ")" if payment_days is None else stated.rstrip(" (")


def per_million_cash_words(
    bid: Any, cash_per_million: float, currency: str, buyer: BuyersCashTerms
) -> str:
    """The serving cost per million tokens' cost-of-cash share in words (issue 31): how much of the
    figure it is, what the bid's terms are and where the buyer's figures came from. It is never
    part of the monthly bill: the provider is not paid it."""
    days = bid.terms.payment_terms_days
    if nobody_stated(bid, "terms.payment_terms_days"):
        terms = "payment terms not stated, priced as due on invoice"
    else:
        source = bid.provenance.get("terms.payment_terms_days")
        terms = (
            f"invoices due {days} days after issue "
            f"({source.label if source else 'stated by the provider'})"
        )
    how = f"{terms}; {cash_words(buyer)}"
    amount = format_money(abs(cash_per_million), currency, cents=True)
    if cash_per_million >= 0.005:
        return (
            f"of which {amount} is the cost of cash of paying sooner than your usual terms ({how})"
        )
    if cash_per_million <= -0.005:
        return f"after {amount} saved in cost of cash by paying later than your usual terms ({how})"
    return f"no cost of cash to speak of ({how})"
