"""The shape of a service's traffic over the day (issue 37): what lets a bid's reserved base plus
on-demand burst be priced. Peak and average alone do not say how long the peak lasts: a service
at 2.4x its average for two hours a day bursts far fewer GPU-hours than one at that peak all
afternoon. The buyer states the shape in one of two ways:

- `peak_hours_per_day`: hours a day at the stated peak; the rest of the day runs at the one rate
  that makes the stated average (a two-level day);
- `hourly_share_of_peak`: 24 values, each hour's traffic as a share of the peak (the largest 1),
  whose mean times the peak must agree with the stated average.

Every day of the month is taken to have this shape (no weekly cycle); growth over the term is
serving_growth's, which scales every level month by month.
"""

from __future__ import annotations

from typing import Protocol

HOURS_PER_DAY = 24
# The hourly shape's mean and the stated average must agree to this share: rounding 24 shares to
# two decimals moves the mean by at most 0.5%; a larger gap is two different services.
AVERAGE_AGREEMENT = 0.02


class StatesTraffic(Protocol):
    peak_requests_per_s: float
    average_requests_per_s: float
    peak_hours_per_day: float | None
    hourly_share_of_peak: tuple[float, ...] | None


def check_traffic_profile(w: StatesTraffic) -> None:
    """Raise ValueError in words when the profile contradicts itself or the stated rates."""
    peak, average = w.peak_requests_per_s, w.average_requests_per_s
    if w.peak_hours_per_day is not None and w.hourly_share_of_peak is not None:
        raise ValueError(
            "give either peak_hours_per_day or hourly_share_of_peak (the traffic profile), not both"
        )
    if w.peak_hours_per_day is not None:
        hours = w.peak_hours_per_day
        if hours * peak > HOURS_PER_DAY * average * (1 + 1e-9):
            needed = hours * peak / HOURS_PER_DAY
            raise ValueError(
                f"peak_hours_per_day {hours:g} at {peak:g} requests/s already averages "
                f"{needed:.4g} requests/s over "
                f"the day, more than average_requests_per_s ({average:g}): shorten the peak or "
                "raise the average"
            )
    shares = w.hourly_share_of_peak
    if shares is None:
        return
    if len(shares) != HOURS_PER_DAY:
        raise ValueError(
            f"hourly_share_of_peak needs 24 values (one per hour of the day), not {len(shares)}"
        )
    bad = [(hour, s) for hour, s in enumerate(shares) if not 0 <= s <= 1]
    if bad:
        hour, share = bad[0]
        raise ValueError(
            f"hourly_share_of_peak hour {hour} is {share:g}: each hour is a share of the peak, 0 "
            "to 1"
        )
    if max(shares) < 1 - 1e-9:
        raise ValueError(
            f"hourly_share_of_peak reaches only {max(shares):g}: the busiest hour is the peak, "
            "so the largest value must be 1"
        )
    implied = sum(shares) / HOURS_PER_DAY * peak
    if abs(implied - average) > AVERAGE_AGREEMENT * average:
        raise ValueError(
            f"hourly_share_of_peak averages {implied:.4g} requests/s at a peak of {peak:g}, but "
            f"average_requests_per_s is {average:g}: set the average to {implied:.4g} or correct "
            "the hours"
        )


def traffic_levels(w: StatesTraffic) -> tuple[tuple[float, float], ...]:
    """((share of peak, share of the month's hours), ...) ascending by share, or () when no
    profile is stated (the fleet then runs at its peak size all month)."""
    if w.peak_hours_per_day is not None:
        hours = w.peak_hours_per_day
        if hours >= HOURS_PER_DAY:
            return ((1.0, 1.0),)
        base = (HOURS_PER_DAY * w.average_requests_per_s - hours * w.peak_requests_per_s) / (
            HOURS_PER_DAY - hours
        )
        levels = {max(base, 0.0) / w.peak_requests_per_s: (HOURS_PER_DAY - hours) / HOURS_PER_DAY}
        levels[1.0] = levels.get(1.0, 0.0) + hours / HOURS_PER_DAY
        return tuple(sorted(levels.items()))
    if w.hourly_share_of_peak is None:
        return ()
    merged: dict[float, float] = {}
    for share in w.hourly_share_of_peak:  # equal hours merge: each level is sized once
        merged[float(share)] = merged.get(float(share), 0.0) + 1.0 / HOURS_PER_DAY
    return tuple(sorted(merged.items()))


def profile_words(w: StatesTraffic) -> str | None:
    """The profile as an officer reads it, or None when none is stated."""
    if w.peak_hours_per_day is not None:
        levels = traffic_levels(w)
        base = levels[0][0] * w.peak_requests_per_s
        return (
            f"{w.peak_hours_per_day:g} hours a day at the peak of {w.peak_requests_per_s:g} "
            "requests/s, "
            f"the rest at {base:.3g} (stated by the buyer)"
        )
    if w.hourly_share_of_peak is not None:
        low = min(w.hourly_share_of_peak) * w.peak_requests_per_s
        busy = sum(1 for s in w.hourly_share_of_peak if s >= 1 - 1e-9)
        return (
            f"an hourly shape from {low:.3g} to {w.peak_requests_per_s:g} requests/s, {busy} "
            f"{'hour' if busy == 1 else 'hours'} a day at "
            "the peak (stated by the buyer)"
        )
    return None
