"""The GPUs beside a serving bid's monthly bill, worded once for the score table, the spreadsheet
export, the memo and the app (issue 37).

Why this module: a growing service's monthly bill is the term's average month, but the estimate's
`gpus_billed` is month 1's fleet at peak. Printed side by side they read as "56 GPUs for
$199,728" where the bill pays for the 96 GPUs reserved all term. Every place that shows a bill
asks here which GPUs go beside it, so a bill is never beside the GPUs of another month. Without
growth the words are the ones each place printed before.
"""

from __future__ import annotations

from typing import Any

from clusterbid.core.money import format_money


def counted(n: int, noun: str) -> str:
    """'1 spare replica', '2 spare replicas': an officer reads a count, not 'replica(s)'."""
    return f"{n:,} {noun}" if n == 1 else f"{n:,} {noun}s"


def grows(e: Any) -> bool:
    """Whether the bid's bill is a growing service's average month (the months are costed)."""
    return e.peak_month is not None and bool(e.reserved_by_month)


def bill_headings(growing: bool) -> tuple[str, str]:
    """(the GPUs column's heading, the monthly bill column's heading) of a comparison table."""
    return ("GPUs reserved", "mean month") if growing else ("GPUs", "per month")


def gpus_beside_bill(e: Any) -> str:
    """The GPUs a table prints beside the monthly bill: without growth the fleet billed at peak;
    with growth the GPUs reserved over the term (one figure when the base is fixed, fewest-most
    when it is re-sized), which is what the average month pays for."""
    if not grows(e):
        return f"{e.gpus_billed:,}"
    fewest, most = min(e.reserved_by_month), max(e.reserved_by_month)
    return f"{most:,}" if fewest == most else f"{fewest:,}-{most:,}"


def _reserved_words(e: Any) -> str:
    reserved = e.reserved_by_month
    if min(reserved) == max(reserved):
        return f"{reserved[0]:,} GPUs reserved all term"
    return (
        f"GPUs reserved from {reserved[0]:,} in month 1 to {reserved[-1]:,} in month "
        f"{len(reserved)}"
    )


def bill_words(e: Any, currency: str) -> str:
    """A bid's monthly bill in words with the GPUs it pays for, from the same months."""
    money = format_money(e.monthly_cost, currency)
    if not grows(e):
        if not e.bursts:
            return f"{money} for {e.gpus_billed:,} GPUs billed at peak provisioning"
        return (
            f"{money}: {e.reserved_gpus:,} GPUs reserved all month plus "
            f"{e.burst_gpu_hours:,.0f} GPU-hours on demand at busy hours ({e.gpus_billed:,} GPUs "
            "at peak)"
        )
    burst = (
        f" plus {e.burst_gpu_hours:,.0f} GPU-hours a month on demand at busy hours, on average"
        if e.bursts
        else ""
    )
    peak = e.peak_month
    other = 1 if peak != 1 else len(e.reserved_by_month)
    return (
        f"{money} a month on average over the term, for {_reserved_words(e)}{burst}; the fleet "
        f"at peak is {e.gpus_at_peak_by_month[peak - 1]:,} GPUs in month {peak}, the term's peak "
        f"month ({e.gpus_at_peak_by_month[other - 1]:,} in month {other})"
    )


def fleet_words(e: Any) -> str:
    """The GPUs needed and billed at peak, naming the month they belong to when it grows."""
    first = f"{e.gpus_needed:,} needed, {e.gpus_billed:,} billed"
    if not grows(e):
        return first + " (whole nodes)"
    return (
        f"{first} at the peak of month 1; {e.gpus_needed_at_peak_month:,} needed, "
        f"{e.gpus_billed_at_peak_month:,} billed at the peak of month {e.peak_month}, the "
        "term's peak month (whole nodes)"
    )
