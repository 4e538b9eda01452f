"""The documented defaults a bid's omitted reliability figures take, each with its source and a wide range.

Resolved here, once, so scoring, Monte Carlo, the memo and the app all use the same figure and say
the same thing about where it came from.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class DocumentedDefault:
    value: float
    low: float  # plausible range used for sensitivity and flagged in reports
    high: float
    source: str


# Meta, "The Llama 3 Herd of Models" (2024), section 3.3.4: 419 unexpected interruptions in 54 days
# on 16,384 H100 GPUs = 419 / (54 x 16,384) x 1,000 = 0.47 per 1,000 GPU-days.
RELIABILITY_DEFAULTS: dict[str, DocumentedDefault] = {
    "reliability.failures_per_1000_gpu_days": DocumentedDefault(
        0.47, 0.2, 2.0, "Llama 3 paper (Meta, 2024): 419 interruptions in 54 days on 16,384 H100s"
    ),
    "reliability.node_replacement_hours": DocumentedDefault(
        24.0, 4.0, 72.0, "ClusterBid default: next-business-day hardware swap"
    ),
    "reliability.uptime_sla_percent": DocumentedDefault(
        99.0, 95.0, 99.9, "ClusterBid default: the common 99% floor of public cloud GPU SLAs"
    ),
    "reliability.sla_credit_percent": DocumentedDefault(0.0, 0.0, 10.0, "ClusterBid default: no credit"),
    "reliability.burn_in_hours": DocumentedDefault(0.0, 0.0, 72.0, "ClusterBid default: none billed"),
    "reliability.storage_write_gb_s": DocumentedDefault(
        10.0, 2.0, 100.0, "ClusterBid default: a modest parallel filesystem tier (conservative)"
    ),
}

# A bid that does not state a spare pool is taken to hold none (the figure stays an int in the
# document, provenance "not_stated"); the range's top is two 8-GPU nodes, what a provider that keeps
# spares commonly holds for a block of a few hundred GPUs (the 8-spare example is inside it).
OTHER_DEFAULTS: dict[str, DocumentedDefault] = {
    "capacity.spare_pool_gpus": DocumentedDefault(
        0.0, 0.0, 16.0, "ClusterBid default: no spares held unless the bid says so"
    ),
}

# Every documented default by dotted path: what the memo, the app and the rank check read.
DOCUMENTED_DEFAULTS: dict[str, DocumentedDefault] = {**RELIABILITY_DEFAULTS, **OTHER_DEFAULTS}

# Bid fields that carry a pydantic default of their own: tracked so a value nobody entered is
# never shown as the provider's.
TRACKED_BID_FIELDS = tuple(RELIABILITY_DEFAULTS) + ("capacity.spare_pool_gpus",)

# Workload inputs that move every bid's cost: the buyer sets them (an assumption about its own
# stack) or leaves them at ClusterBid's default. Required ones (baseline MFU) are always the buyer's.
WORKLOAD_TRACKED_FIELDS = (
    "baseline_mfu", "dp_comm_overlap", "checkpoint_interval_minutes", "checkpoint_blocking_share",
    "restart_minutes",
)
