"""How late each bid's block is handed over in each Monte Carlo draw (issue 39, item 1).

A bid without a delivery schedule is never drawn late (its single stated date stands, as before).
A schedule's slip is drawn from what the provider states, else from ClusterBid's default:
- past deliveries given: one of them at random (each equally likely), its days late;
- otherwise on time with the stated chance (not stated: DEFAULT_ON_TIME_SHARE), late otherwise
  by an exponential number of days with mean DEFAULT_MEAN_SLIP_DAYS.
Each bid draws from its own stream (streams.py), so adding a schedule to one bid leaves every other
bid's draws as they were.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from clusterbid.core.bid import Bid
from clusterbid.core.delivery import DEFAULT_MEAN_SLIP_DAYS, DEFAULT_ON_TIME_SHARE

STREAM = "delivery_slip"


@dataclass(frozen=True, slots=True)
class SlipSpread:
    """One bid's slip distribution, in days."""

    past_days: tuple[int, ...]  # when given, the draw is one of these
    on_time_share: float
    mean_late_days: float

    def late_share_beyond(self, days: float) -> float:
        """P(slip > days): the chance a right that arises after `days` late is reached."""
        if self.past_days:
            return sum(1 for d in self.past_days if d > days) / len(self.past_days)
        return (1.0 - self.on_time_share) * math.exp(-max(days, 0.0) / self.mean_late_days)

    @property
    def mean_days(self) -> float:
        if self.past_days:
            return sum(self.past_days) / len(self.past_days)
        return (1.0 - self.on_time_share) * self.mean_late_days


def slip_spread(bid: Bid) -> SlipSpread | None:
    """The bid's slip distribution (None: no schedule, never late)."""
    schedule = bid.delivery
    if schedule is None:
        return None
    on_time = (
        DEFAULT_ON_TIME_SHARE
        if schedule.on_time_percent is None
        else schedule.on_time_percent / 100.0
    )
    return SlipSpread(schedule.past_slip_days, on_time, DEFAULT_MEAN_SLIP_DAYS)


def draw_slip_hours(gen: np.random.Generator, spread: SlipSpread, n: int) -> np.ndarray:
    """`n` slips in hours (float32), from the bid's own stream."""
    if spread.past_days:
        days = np.asarray(spread.past_days, dtype=np.float64)[
            gen.integers(0, len(spread.past_days), n)
        ]
    else:
        late = gen.random(n) >= spread.on_time_share
        days = np.where(late, gen.exponential(spread.mean_late_days, n), 0.0)
    return (days * 24.0).astype(np.float32)
