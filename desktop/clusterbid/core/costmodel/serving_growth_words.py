"""A growing service's months as figures and words (issue 37; the model is serving_growth)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from clusterbid.core.bid import Bid
from clusterbid.core.costmodel.gates import Finding
from clusterbid.core.money import format_money

# The bands draw the monthly growth around the stated figure with this standard deviation as a
# share of it when the buyer states none (a ClusterBid judgement: a service's growth a year ahead
# is rarely known better than by half).
DEFAULT_GROWTH_SPREAD_SHARE = 0.5


def growth_spread(workload: Any) -> float:
    """The standard deviation of the monthly growth drawn in the bands, a fraction a month."""
    stated = workload.growth_spread_percent_per_month
    if stated is not None:
        return float(stated) / 100.0
    return (
        abs(float(workload.traffic_growth_percent_per_month)) / 100.0 * DEFAULT_GROWTH_SPREAD_SHARE
    )


def term_figures(plan: Any, i: int, tp: int) -> dict[str, Any]:
    """The estimate's month-by-month figures for bid i (None when the traffic does not grow), and
    its fleet at the term's peak month: the month the stated growth gives the most traffic (the
    last when it grows, month 1 when it falls), where the fleet's size is judged."""
    term = plan.term
    if term.gpu_bills.shape[1] == 1:
        return dict.fromkeys(MONTH_FIGURES)
    peak = int(np.argmax(term.traffic[i]))  # the first of equal months
    return {
        "monthly_bills": tuple(float(v) for v in plan.monthly_bills[i]),
        "gpus_at_peak_by_month": tuple(int(v) for v in term.gpus_at_peak[i]),
        "reserved_by_month": tuple(int(v) for v in term.reserved_gpus[i]),
        "replicas_by_month": tuple(int(v) for v in term.replicas_at_peak[i]),
        "peak_month": peak + 1,
        "gpus_needed_at_peak_month": int(term.replicas_at_peak[i, peak]) * tp,
        "gpus_billed_at_peak_month": int(term.gpus_at_peak[i, peak]),
    }


MONTH_FIGURES = (
    "monthly_bills",
    "gpus_at_peak_by_month",
    "reserved_by_month",
    "replicas_by_month",
    "peak_month",
    "gpus_needed_at_peak_month",
    "gpus_billed_at_peak_month",
)


def judged_months(workload: Any) -> tuple[int, ...]:
    """The months whose peak the chance of meeting the targets is judged at: month 1 (before any
    growth, where a draw growing slower than stated is tightest) and the term's last month (where
    a draw growing faster than stated is tightest: the gap compounds every month); only month 1
    when the traffic neither grows nor is drawn to."""
    months = int(workload.service_months)
    if months == 1 or not (workload.traffic_growth_percent_per_month or growth_spread(workload)):
        return (1,)
    return (1, months)


def peak_month_words(e: Any) -> str | None:
    """Which month the fleet is judged at, in words (None when the traffic does not grow)."""
    if e.peak_month is None:
        return None
    months = len(e.monthly_bills)
    if e.peak_month == 1:
        return f"month 1, the term's peak month (the traffic falls over the {months} months)"
    return f"month {e.peak_month}, the term's peak month (the traffic grows every month)"


def outgrown_finding(bid: Bid, gpus_by_month: tuple[int, ...] | None) -> tuple[Finding, ...]:
    """A flag when the traffic grows past the GPUs the bid offers before the term ends."""
    if not gpus_by_month:
        return ()
    offered = bid.capacity.gpus_offered
    late = next((m for m, gpus in enumerate(gpus_by_month, 1) if gpus > offered), None)
    if late is None:
        return ()
    return (
        Finding(
            "traffic_outgrows_offer",
            f"the stated growth needs {gpus_by_month[late - 1]:,} GPUs at peak by month {late}, "
            f"more than the {offered:,} the bid offers: ask the provider in writing whether it "
            "can add them, at what price (costed here as if it can, at the bid's prices)",
        ),
    )


def growth_words(workload: Any) -> str | None:
    """The stated growth as an officer reads it, or None when the traffic does not grow."""
    g = workload.traffic_growth_percent_per_month
    if not g:
        return None
    months = workload.service_months
    last = (1 + g / 100.0) ** (months - 1)
    spread = growth_spread(workload) * 100
    source = (
        "stated by the buyer"
        if workload.growth_spread_percent_per_month is not None
        else "ClusterBid default: half the growth"
    )
    return (
        f"traffic {'grows' if g > 0 else 'falls'} {abs(g):g}% a month (stated by the buyer): "
        f"month {months} runs at {last:.2f}x month 1; the bands draw the growth "
        f"+/-{spread:.3g} points a month ({source})"
    )


def term_words(e: Any, currency: str) -> str | None:
    """A growing service's bill over the term in words, or None when it does not grow."""
    bills, gpus, reserved = e.monthly_bills, e.gpus_at_peak_by_month, e.reserved_by_month
    if not bills or gpus is None or reserved is None:
        return None
    resize = e.bid.terms.reserved_resize_months
    how = (
        "the reserved base fixed for the term (the bid does not say it may change)"
        if resize is None
        else "the reserved base re-sized every "
        + ("month" if resize == 1 else f"{resize} months")
        + " (stated by the provider)"
    )
    total = math.fsum(bills)
    return (
        f"month 1 {format_money(bills[0], currency)} ({gpus[0]:,} GPUs at peak, {reserved[0]:,} "
        f"reserved), month {len(bills)} {format_money(bills[-1], currency)} ({gpus[-1]:,} at "
        f"peak, {reserved[-1]:,} reserved); {format_money(total, currency)} over the "
        f"{len(bills)} months, {format_money(total / len(bills), currency)} a month on average; "
        f"{how}"
    )
