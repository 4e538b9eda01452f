"""The documented defaults a bid's omitted reliability figures take, each with its source and a wide range.

Resolved here, once, so scoring, Monte Carlo, the memo and the app all use the same figure and say
the same thing about where it came from.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class DocumentedDefault:
    value: float  # the cautious end of the range: omitting a figure never makes a bid look better
    low: float  # plausible range used for sensitivity and flagged in reports
    high: float
    source: str
    typical: float  # what a provider commonly states: a stated typical figure beats the default
    former: float | None = None  # the default before issue 31, which older documents may hold
    # Defaults of later days (the failure rate was 2.0 until issue 36's check of Meta's figures):
    # an older document marking the figure not stated may hold one of them.
    earlier: tuple[float, ...] = ()


# Issue 31: a figure the provider leaves out takes the cautious end of its documented range, so a
# bid never gains by omitting it; `typical` is what providers commonly state, `former` the default
# before (older documents may hold it for a figure nobody stated). The failure rate is a fleet's,
# read on jobs up to 1,024 GPUs (costmodel.failure_model). Its cautious end is the rate Meta's
# research clusters measured on single-node jobs (Kokolis et al. 2024, arXiv 2410.21680: mean time
# to failure 47.7 days for 8-GPU jobs, 1,000 / (47.7 x 8) = 2.6 per 1,000 GPU-days); it was 2.0,
# below that measurement, until issue 36 checked the papers. The typical figure is Meta, "The Llama
# 3 Herd of Models" (2024), section 3.3.4: 419 unexpected interruptions in 54 days on 16,384 H100
# GPUs = 0.47 per 1,000 GPU-days at that size, which the size model reads as
# 0.47 / (1,024 / 16,384)^0.47 = 1.7 across the fleet (before issue 36 the 0.47 itself was).
RELIABILITY_DEFAULTS: dict[str, DocumentedDefault] = {
    "reliability.failures_per_1000_gpu_days": DocumentedDefault(
        2.6,
        0.2,
        2.6,
        "cautious end of 0.2-2.6 across a fleet (2.6: Meta's research clusters, 8-GPU jobs, "
        "Kokolis et al. 2024); typical: Llama 3 paper (Meta, 2024), 419 interruptions in 54 days "
        "on 16,384 "
        "H100s, 1.7 across the fleet once read back from that job size",
        1.7,
        0.47,
        (2.0,),
    ),
    "reliability.node_replacement_hours": DocumentedDefault(
        72.0,
        4.0,
        72.0,
        "cautious end of 4-72 h; typical: a next-business-day hardware swap, 24 h",
        24.0,
        24.0,
    ),
    "reliability.uptime_sla_percent": DocumentedDefault(
        95.0,
        95.0,
        99.9,
        "cautious end of 95-99.9%; typical: the common 99% floor of public cloud GPU SLAs",
        99.0,
        99.0,
    ),
    "reliability.sla_credit_percent": DocumentedDefault(
        0.0, 0.0, 10.0, "ClusterBid default: no credit", 0.0, 0.0
    ),
    "reliability.burn_in_hours": DocumentedDefault(
        72.0,
        0.0,
        72.0,
        "cautious end of 0-72 h billed burn-in (acceptance runs of 24-72 h, buyers.md); "
        "typical: 24 h",
        24.0,
        0.0,
    ),
    "reliability.storage_write_gb_s": DocumentedDefault(
        2.0,
        2.0,
        100.0,
        "cautious end of 2-100 GB/s; typical: a modest parallel filesystem tier, 10 GB/s",
        10.0,
        10.0,
    ),
}

# A bid that does not state a spare pool is taken to hold none (the figure stays an int in the
# document, provenance "not_stated"); the range's top is two 8-GPU nodes, what a provider that keeps
# spares commonly holds for a block of a few hundred GPUs (the 8-spare example is inside it).
# The typical statement is one 8-GPU node; on a term that bills spares, a pool nobody stated is
# billed as that node (resolve.billed_spare_gpus), so the blank is never better than the typical.
OTHER_DEFAULTS: dict[str, DocumentedDefault] = {
    "capacity.spare_pool_gpus": DocumentedDefault(
        0.0,
        0.0,
        16.0,
        "ClusterBid default: no spares on hand unless the bid says so; on a term that "
        "bills spares, one node billed",
        8.0,
        0.0,
    ),
}

# Commercial terms a bid leaves out (issue 31: an unknown term is never free). An exit clause
# without a fee is priced as no exit (the whole rest of the term owed) until the fee is in writing;
# escalation, which bites from the first anniversary, at the top of the 0-10% a year a multi-year
# reservation carries (3-5% is the common escalator in colocation and capacity contracts, the
# typical figure here a judgement, not a quoted source). Before issue 31 both were read as 0.
TERMS_DEFAULTS: dict[str, DocumentedDefault] = {
    "terms.early_exit_fee_percent": DocumentedDefault(
        100.0,
        0.0,
        100.0,
        "cautious end of 0-100% of the rest of the term: an exit whose fee is not stated "
        "is worth nothing until it is written",
        50.0,
        0.0,
    ),
    "terms.price_escalation_percent_per_year": DocumentedDefault(
        10.0,
        0.0,
        10.0,
        "cautious end of 0-10% a year; typical escalators 3-5% (judgement)",
        3.0,
        0.0,
    ),
}

# Fees, minimums and payment terms a bid leaves empty (issue 31). Fees are priced as a share of
# the GPU bill, not a sum, so the default scales with the contract: recurring fees at the top of
# AWS's published support tiers (Business and Enterprise Support charge 10% of the first band of
# the monthly bill, falling to 3% above it; 3% is the typical figure for bills this size), one-off
# fees (setup, onboarding, data egress, exit) at 2% (a judgement: no public list prices them).
# Billing steps: per second with a 1-minute minimum is the public-cloud norm (EC2 and Compute
# Engine since 2017); hourly, how EC2 billed before, is the cautious end. Payment terms not stated
# are taken as due on invoice, priced as the cost of cash against the buyer's own terms
# (costmodel/payment_terms.py) and drawn between due on invoice and the typical net 30.
FEE_DEFAULTS: dict[str, DocumentedDefault] = {
    "terms.recurring_fees_per_month": DocumentedDefault(
        10.0,
        0.0,
        10.0,
        "% of the GPU bill: cautious end of 0-10%, the top band of AWS Business and "
        "Enterprise Support fees (3% above it, the typical figure)",
        3.0,
        0.0,
    ),
    "terms.one_off_fees": DocumentedDefault(
        2.0,
        0.0,
        2.0,
        "% of the GPU bill: cautious end of 0-2% for setup, onboarding, egress and exit "
        "(a judgement; commonly waived)",
        0.0,
        0.0,
    ),
    "terms.billing_increment_hours": DocumentedDefault(
        1.0,
        0.0,
        1.0,
        "cautious end of per-second (EC2 and Compute Engine since 2017) to hourly billing "
        "(EC2 before 2017)",
        0.0,
        0.0,
    ),
    "terms.minimum_billed_hours": DocumentedDefault(
        1.0,
        0.0,
        1.0,
        "cautious end of a 1-minute (EC2, Compute Engine) to a 1-hour minimum per GPU",
        1.0 / 60.0,
        0.0,
    ),
    "terms.payment_terms_days": DocumentedDefault(
        0.0,
        0.0,
        60.0,
        "days after invoice: cautious end of 0-60, due on invoice; typical net 30 (priced "
        "as the cost of cash against your own payment terms)",
        30.0,
        None,
    ),
}
# Fees stated as a sum whose unstated default is a share of the GPU bill (percent above).
FEE_SHARE_PATHS = ("terms.recurring_fees_per_month", "terms.one_off_fees")

# Every documented default by dotted path: what the memo, the app and the rank check read.
DOCUMENTED_DEFAULTS: dict[str, DocumentedDefault] = {
    **RELIABILITY_DEFAULTS,
    **OTHER_DEFAULTS,
    **TERMS_DEFAULTS,
    **FEE_DEFAULTS,
}

# Bid fields that carry a pydantic default of their own: tracked so a value nobody entered is
# never shown as the provider's.
TRACKED_BID_FIELDS = (
    tuple(RELIABILITY_DEFAULTS) + ("capacity.spare_pool_gpus",) + tuple(TERMS_DEFAULTS)
)

# Workload inputs that move every bid's cost: the buyer sets them (an assumption about its own
# stack) or leaves them at ClusterBid's default. Required ones (baseline MFU) are always the buyer's.
WORKLOAD_TRACKED_FIELDS = (
    "baseline_mfu",
    "software_stack",
    "dp_comm_overlap",
    "checkpoint_interval_minutes",
    "checkpoint_blocking_share",
    "restart_minutes",
)
