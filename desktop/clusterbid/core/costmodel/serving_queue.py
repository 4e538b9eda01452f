"""Queueing headroom: replicas enough that the stated share of first tokens meets the target at peak.

Each replica runs `batch` sequences at once, so a fleet of n replicas is a queue with
c = n x batch servers (batch slots). Requests arrive at the peak rate (Poisson) and hold a slot
for their whole life (prefill and every output token). The Erlang-C formula (M/M/c) gives the
chance that an arriving request finds every slot busy, and the wait of the unlucky ones is
exponential with rate (c - load) / service time. Sizing for the mean alone would run at 100%
busy slots, where the wait grows without bound.
"""

from __future__ import annotations

import math

import numpy as np

# The exact recursion costs one step per server; past this many slots the Halfin-Whitt
# approximation (Halfin & Whitt 1981, Operations Research 29(3)) is within a fraction of a
# percent and costs nothing.
EXACT_SERVER_LIMIT = 4096
_ERF = np.vectorize(math.erf, otypes=[float])


def erlang_c(servers: np.ndarray, load: np.ndarray, exact_limit: int = EXACT_SERVER_LIMIT) -> np.ndarray:
    """Chance that an arrival waits, for `servers` slots offered `load` Erlangs (arrival rate x
    service time). 1 where the load reaches the servers (the queue never drains)."""
    c = np.asarray(servers, dtype=float)
    a = np.asarray(load, dtype=float)
    c, a = np.broadcast_arrays(c, a)
    result = np.ones(c.shape)
    stable = (a < c) & (a > 0)
    small = stable & (c <= exact_limit)
    if small.any():
        # Erlang B by its stable recursion on the inverse: 1/B(k) = 1 + k / a / B(k-1).
        inverse_b = np.ones(c.shape)
        top = int(c[small].max())
        with np.errstate(over="ignore"):
            for k in range(1, top + 1):
                inverse_b = np.where(small & (k <= c), 1.0 + inverse_b * k / np.where(a > 0, a, 1.0), inverse_b)
        b = 1.0 / inverse_b
        with np.errstate(invalid="ignore", divide="ignore"):
            exact = c * b / (c - a * (1.0 - b))
        result = np.where(small, exact, result)
    large = stable & ~small
    if large.any():
        # beta beyond 30 (or infinite servers) leaves no chance of waiting worth a float.
        beta = np.where(large, np.minimum((c - a) / np.sqrt(np.where(a > 0, a, 1.0)), 30.0), 1.0)
        cdf = 0.5 * (1.0 + _ERF(beta / math.sqrt(2.0)))
        pdf = np.exp(-0.5 * beta**2) / math.sqrt(2.0 * math.pi)
        result = np.where(large, 1.0 / (1.0 + beta * cdf / pdf), result)
    return np.where(a <= 0, 0.0, result)


def wait_at_percentile_s(
    servers: np.ndarray, load: np.ndarray, service_s: np.ndarray, percentile: float,
    exact_limit: int = EXACT_SERVER_LIMIT,
) -> np.ndarray:
    """Queueing wait that `percentile` of requests stay within: P(W > t) = C exp(-(c - a) t / S),
    so t = S / (c - a) x ln(C / (1 - p)), nil when fewer than 1 - p requests wait at all."""
    c = np.asarray(servers, dtype=float)
    a = np.asarray(load, dtype=float)
    chance = erlang_c(c, a, exact_limit)
    with np.errstate(divide="ignore", invalid="ignore"):
        wait = np.where(
            a < c, service_s / (c - a) * np.log(np.maximum(chance / (1.0 - percentile), 1.0)), np.inf
        )
    return np.where(chance <= 1.0 - percentile, 0.0, wait)


def replicas_with_headroom(
    minimum: np.ndarray, batch: np.ndarray, arrivals_per_s: float, service_s: np.ndarray,
    slack_s: np.ndarray, percentile: float, exact_limit: int = EXACT_SERVER_LIMIT,
) -> np.ndarray:
    """Fewest replicas, from `minimum` (enough for the mean), whose queueing wait at the
    percentile fits in `slack_s` (the target minus the replica's own first-token time).
    inf where `minimum` is inf or no slack remains. The count is monotone in replicas, so a
    bisection between `minimum` and a bound that always suffices (C <= 1) finds it."""
    load = arrivals_per_s * service_s
    ok_input = np.isfinite(minimum) & (slack_s > 0) & np.isfinite(service_s)
    slack = np.where(ok_input, slack_s, 1.0)
    low = np.where(ok_input, minimum, 1.0)
    gap = service_s * math.log(1.0 / (1.0 - percentile)) / slack
    high = np.maximum(low, np.ceil((np.where(ok_input, load, 0.0) + gap) / batch) + 1.0)

    def meets(n: np.ndarray) -> np.ndarray:
        return wait_at_percentile_s(n * batch, load, service_s, percentile, exact_limit) <= slack

    done = meets(low)
    while True:
        pending = ~done & (high - low > 1.0)
        if not pending.any():
            break
        middle = np.floor((low + high) / 2.0)
        good = meets(middle)
        high = np.where(pending & good, middle, high)
        low = np.where(pending & ~good, middle, low)
    answer = np.where(done, low, high)
    return np.where(ok_input, answer, np.inf)
