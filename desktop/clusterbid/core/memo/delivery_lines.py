"""The bid page's rows for issue 39: the delivery schedule with its slip and remedies, and the
provider's third-party rating. Each says where its figures come from (stated by the provider,
ClusterBid default, third party). The SLA credit's line is the net cost's (contract_summary.py)."""

from __future__ import annotations

from clusterbid.core.bid import Bid
from clusterbid.core.delivery import DEFAULT_REMEDY_CAP_PERCENT, slip_words
from clusterbid.core.money import format_money
from clusterbid.core.provider_rating import ProviderRating
from clusterbid.core.uncertainty.delivery_slips import slip_spread

Row = tuple[str, str]


def delivery_rows(bid: Bid, job_gpus: int) -> list[Row]:
    schedule = bid.delivery
    if schedule is None:
        return []
    phases = "; ".join(
        f"{p.gpus:,} GPUs on {p.handover.isoformat()}"
        + ("" if p.contiguous else " (outside the block)")
        for p in schedule.phases
    )
    block = schedule.block_handover(job_gpus)
    start = (
        f"the job's {job_gpus:,}-GPU block is complete on {block.isoformat()}"
        if block
        else f"the phases never make one {job_gpus:,}-GPU block"
    )
    remedies = []
    if schedule.late_credit_percent_per_week:
        remedies.append(f"{schedule.late_credit_percent_per_week:g}% credit per week late")
    if schedule.liquidated_damages_per_day:
        remedies.append(
            f"{format_money(float(schedule.liquidated_damages_per_day), bid.terms.currency)} a day "
            "in liquidated damages"
        )
    if remedies:
        cap = (
            f"capped at {schedule.remedy_cap_percent:g}%"
            if schedule.remedy_cap_percent is not None
            else f"no cap stated, counted up to {DEFAULT_REMEDY_CAP_PERCENT:g}% (ClusterBid default)"
        )
        remedy_text = ", ".join(remedies) + f", {cap} of the commitment"
    else:
        remedy_text = "no late-delivery remedy stated"
    if schedule.terminate_after_days_late is not None:
        spread = slip_spread(bid)
        reached = spread.late_share_beyond(schedule.terminate_after_days_late) if spread else 0.0
        remedy_text += (
            f"; the buyer may terminate after {schedule.terminate_after_days_late} days late "
            f"(reached in {reached:.0%} of the slips drawn)"
        )
    billing = {
        True: "billing starts at acceptance (stated)",
        False: "billing starts on the stated date (stated)",
        None: "not stated when billing starts: priced as from the stated date",
    }[schedule.billing_starts_at_acceptance]
    return [
        ("Delivery", f"{phases}: {start}"),
        ("Slip", slip_words(schedule)),
        ("Late delivery", f"{remedy_text}; {billing}"),
    ]


def rating_row(rating: ProviderRating | None) -> Row | None:
    if rating is None:
        return None
    return (
        "Provider rating",
        f"{rating.words()}: third-party evidence about the provider, not the bid's claim",
    )
