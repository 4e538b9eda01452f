"""Queueing headroom only where it can matter (issue 37: the serving Monte Carlo's time).

Sizing a candidate (TP degree, batch) for its queueing headroom is a bisection over Erlang C
(serving_queue), the dearest step of the serving model; the Monte Carlo does it for every
candidate of every draw. Yet a candidate's bill can never be below the bill of the replicas its
mean rate needs plus the spares, in whole nodes (headroom only adds replicas, and the bill never
falls as GPUs rise). So, per bid (or per draw of a bid):

1. the candidate with the lowest such bound is sized exactly: its bill is an upper bound on the
   cheapest;
2. every candidate whose bound does not exceed that bill is sized exactly as well;
3. the rest cannot be the cheapest, nor tie with it, nor need fewer GPUs: they are left unsized.

The cheapest candidate, its ties, and the fewest GPUs any candidate needs are therefore exactly
those of sizing every candidate; tests/core/serving/test_serving_sizing_exact.py checks it.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from clusterbid.core.costmodel.serving_queue import replicas_with_headroom

# Bills within this share of the row's best are sized too (looser than the ranking's 1e-12 ties).
TIE_SLACK = 1e-9
_NONE = np.iinfo(np.int64).max


def replicas_near_cheapest(
    minimum: np.ndarray,
    batch: np.ndarray,
    arrivals_per_s: float,
    service_s: np.ndarray,
    slack_s: np.ndarray,
    percentile: float,
    exact_slots: int,
    *,
    spares: float,
    tp: np.ndarray,
    per_node: np.ndarray,
    row_of: np.ndarray,
    rows: int,
    monthly_of: Callable[[np.ndarray, np.ndarray], np.ndarray],
) -> np.ndarray:
    """Replicas (headroom and spares included) of each candidate that could be its row's cheapest;
    inf for the others. `monthly_of(billed GPUs, candidate indices)`: the bill, rising with GPUs."""

    def billed(replicas: np.ndarray, at: np.ndarray) -> np.ndarray:
        return np.asarray(np.ceil(replicas * tp[at] / per_node[at]) * per_node[at], dtype=float)

    def size(at: np.ndarray) -> np.ndarray:
        return (
            replicas_with_headroom(
                minimum[at],
                batch[at],
                arrivals_per_s,
                service_s[at],
                slack_s[at],
                percentile,
                exact_slots,
            )
            + spares
        )

    everywhere = np.arange(minimum.size)
    bound = monthly_of(billed(minimum + spares, everywhere), everywhere)
    lowest = np.full(rows, np.inf)
    np.minimum.at(lowest, row_of, bound)
    first = np.full(rows, _NONE)
    at_lowest = np.flatnonzero(bound <= lowest[row_of])
    np.minimum.at(first, row_of[at_lowest], at_lowest)
    scouts = first[first != _NONE]
    replicas = np.full(minimum.size, np.inf)
    sized = np.zeros(minimum.size, dtype=bool)
    replicas[scouts], sized[scouts] = size(scouts), True
    best = np.full(rows, np.inf)
    found = scouts[np.isfinite(replicas[scouts])]
    np.minimum.at(best, row_of[found], monthly_of(billed(replicas[found], found), found))
    rest = np.flatnonzero(~sized & (bound <= best[row_of] * (1.0 + TIE_SLACK)))
    if rest.size:
        replicas[rest] = size(rest)
    return replicas
