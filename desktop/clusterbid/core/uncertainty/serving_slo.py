"""The chance that the fleet as costed meets the service's targets at peak (issue 37).

The point estimate sizes each bid's fleet (replicas of a tensor-parallel degree) at the assumed
efficiencies. A Monte Carlo draw of lower efficiency slows every step; an operator would then
retune the batch, not buy GPUs overnight. So a draw counts as meeting the targets when, with the
fleet's replicas (spares included, all up) at the stated peak, some searched batch keeps the
time per output token within its target and the first token, queueing at the target's
percentile included (serving_queue), within its target. The share of draws that do is the chance
of meeting the service levels at peak; 1 - that share is the chance the approved fleet is short.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from clusterbid.core.costmodel.serving import ReplicaGrid
from clusterbid.core.costmodel.serving_estimate import ServingEstimates
from clusterbid.core.costmodel.serving_inputs import ServingScalars
from clusterbid.core.costmodel.serving_queue import wait_at_percentile_s


@dataclass(frozen=True, slots=True)
class CostedFleets:
    """Each bid's fleet at the point estimate: its degree's index in the searched degrees and its
    replicas (-1 and 0 where the bid cannot serve)."""

    degree_index: np.ndarray  # (bids,) int
    replicas: np.ndarray  # (bids,) float


def costed_fleets(estimates: ServingEstimates, degrees: tuple[int, ...]) -> CostedFleets:
    index = [
        degrees.index(e.tensor_parallel) if e.tensor_parallel in degrees and e.replicas else -1
        for e in estimates.bids
    ]
    replicas = [float(e.replicas or 0) for e in estimates.bids]
    return CostedFleets(np.asarray(index, dtype=int), np.asarray(replicas, dtype=float))


def meets_at_peak(
    w: ServingScalars, grid: ReplicaGrid, fleets: CostedFleets, draws: int, exact_slots: int
) -> np.ndarray:
    """(bids, draws) bool: whether each draw's replica, at some batch, lets the costed fleet meet
    both targets at the stated peak. `grid` rows are (bid, draw) pairs, bid-major."""
    bids = fleets.replicas.size
    rows = np.arange(bids * draws)
    degree = np.repeat(fleets.degree_index, draws)
    live = degree >= 0
    result = np.zeros(bids * draws, dtype=bool)
    if not live.any():
        return result.reshape(bids, draws)
    rows, degree = rows[live], degree[live]
    shape = grid.tpot_s.shape

    def at(values: np.ndarray) -> np.ndarray:  # (live rows, batches) at each row's costed degree
        return np.asarray(np.broadcast_to(values, shape)[rows, degree])

    tpot, ttft, prefill = at(grid.tpot_s), at(grid.ttft_s), at(grid.prefill_s)
    fits = at(grid.fits_hbm) & at(grid.placeable)
    batch = np.broadcast_to(grid.batch, shape)[0, 0][None, :]
    replicas = np.repeat(fleets.replicas, draws)[live][:, None]
    service = prefill + w.output_tokens * tpot
    arrivals = w.peak_output_tokens_s / w.output_tokens  # the stated peak, no margin: the promise
    candidate = fits & (tpot <= w.tpot_target_s) & (ttft <= w.ttft_target_s)
    wait = np.full(tpot.shape, np.inf)
    wait[candidate] = wait_at_percentile_s(
        (replicas * batch)[candidate],
        arrivals * service[candidate],
        service[candidate],
        w.ttft_percentile,
        exact_slots,
    )
    result[rows] = (candidate & (ttft + wait <= w.ttft_target_s)).any(axis=1)
    return result.reshape(bids, draws)
