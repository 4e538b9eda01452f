"""What a late handover of the job's block costs and pays back, vectorised like contract.py (issue 39).

The point estimate takes the provider's dates (slip 0); the Monte Carlo draws a slip per bid
(uncertainty/delivery_slips.py) into the `slip_hours` column. A slip
- moves the finish: the job starts when its block is accepted, so the deadline sees run + slip;
- is paid for when billing does not start at acceptance (stated so, or not stated): a reserved
  term or block billed from the stated date holds the GPUs through the slip, so the contract sees
  run + slip hours (a job that no longer fits the term is extended, as contract.py prices any
  overrun); usage and committed deals bill what is used, so the slip bills nothing there;
- earns the remedies the bid states: a credit per full week late (share of the commitment) and
  liquidated damages per day, together at most the cap (not stated: DEFAULT_REMEDY_CAP_PERCENT).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from clusterbid.core.bid import Bid
from clusterbid.core.delivery import DEFAULT_REMEDY_CAP_PERCENT

# BidArrays columns: hours the job's block is late; 1 where billing starts at the stated date, not
# at acceptance; credit per full week late (share of the commitment); liquidated damages per hour
# late (evaluation currency); the remedies' cap (share of the commitment).
COLUMNS = (
    "slip_hours",
    "billed_through_slip",
    "late_credit_per_week",
    "late_damages_per_hour",
    "late_remedy_cap",
)


def delivery_row(bid: Bid, rate: float) -> dict[str, float]:
    """The bid's delivery columns (BidArrays), money in the evaluation currency via `rate`."""
    schedule = bid.delivery
    if schedule is None:  # no schedule: the single stated date, nothing drawn, no remedies
        return {
            "slip_hours": 0.0,
            "billed_through_slip": 0.0,
            "late_credit_per_week": 0.0,
            "late_damages_per_hour": 0.0,
            "late_remedy_cap": 0.0,
        }
    cap = (
        DEFAULT_REMEDY_CAP_PERCENT
        if schedule.remedy_cap_percent is None
        else schedule.remedy_cap_percent
    )
    damages = float(schedule.liquidated_damages_per_day or 0) * rate / 24.0
    return {
        "slip_hours": 0.0,
        "billed_through_slip": 0.0 if schedule.billing_starts_at_acceptance else 1.0,
        "late_credit_per_week": (schedule.late_credit_percent_per_week or 0.0) / 100.0,
        "late_damages_per_hour": damages,
        "late_remedy_cap": cap / 100.0,
    }


def held_hours(b: Any, wall_hours: Any, bills_a_term: Any) -> Any:
    """Hours the contract bills for: the run, plus the slip where a term bills from the stated date."""
    slip = b.slip_hours
    if not np.any(slip):
        return wall_hours
    return wall_hours + np.where(bills_a_term & (b.billed_through_slip > 0), slip, 0.0)


def late_remedy(b: Any, commitment: Any) -> Any:
    """What the provider owes for the slip: weekly credits and daily damages, capped."""
    slip = b.slip_hours
    if not np.any(slip):
        return np.zeros(np.shape(commitment), dtype=np.result_type(commitment))
    weeks = np.floor(slip / (7.0 * 24.0) + 1e-9)
    owed = b.late_credit_per_week * weeks * commitment + b.late_damages_per_hour * slip
    return np.minimum(owed, b.late_remedy_cap * commitment)
