"""The serving Monte Carlo's check at peak and peak-month fleet as worked out before the cells
(serving_cells.py): over the whole replica grid, every bid and draw, one row per pair. Kept here,
not in core, as the independent reference test_serving_mc_cells.py compares the cells with."""

from __future__ import annotations

import numpy as np

from clusterbid.core.costmodel.serving import Fleet, ReplicaGrid
from clusterbid.core.costmodel.serving_inputs import ServingScalars
from clusterbid.core.costmodel.serving_queue import wait_at_percentile_s
from clusterbid.core.uncertainty.serving_slo import CostedFleets


def meets_at_peak(
    w: ServingScalars,
    grid: ReplicaGrid,
    fleets: CostedFleets,
    draws: int,
    exact_slots: int,
    growth: np.ndarray | None = None,
) -> np.ndarray:
    """(bids, draws) bool: whether each draw's replica, at some batch, lets the costed fleet meet
    both targets at the peak of every judged month. `grid` rows are (bid, draw) pairs, bid-major;
    `growth`: each draw's monthly traffic growth, a fraction (draws,), none: 0."""
    met = np.ones((fleets.degree_index.size, draws), dtype=bool)
    drawn = np.zeros(draws) if growth is None else np.asarray(growth, dtype=float)
    for j, month in enumerate(fleets.months):
        traffic = (1.0 + drawn) ** (month - 1)
        met &= _meets_in_month(w, grid, fleets, j, traffic, exact_slots)
    return met


def _meets_in_month(
    w: ServingScalars,
    grid: ReplicaGrid,
    fleets: CostedFleets,
    j: int,
    traffic: np.ndarray,
    exact_slots: int,
) -> np.ndarray:
    """meets_at_peak for judged month j alone; `traffic`: each draw's peak there as a multiple of
    the stated."""
    draws = traffic.size
    bids = fleets.degree_index.size
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
    replicas = np.repeat(fleets.replicas[:, j], draws)[live][:, None]
    service = prefill + w.output_tokens * tpot
    # The month's peak at the draw's growth, no margin: the promise.
    arrivals = (w.peak_output_tokens_s / w.output_tokens * np.tile(traffic, bids))[live][:, None]
    candidate = fits & (tpot <= w.tpot_target_s) & (ttft <= w.ttft_target_s)
    wait = np.full(tpot.shape, np.inf)
    wait[candidate] = wait_at_percentile_s(
        (replicas * batch)[candidate],
        (arrivals * service)[candidate],
        service[candidate],
        w.ttft_percentile,
        exact_slots,
    )
    result[rows] = (candidate & (ttft + wait <= w.ttft_target_s)).any(axis=1)
    return result.reshape(bids, draws)


def fleet_at_peak_month(w: ServingScalars, plan: Fleet) -> tuple[np.ndarray, np.ndarray]:
    """Each row's (GPUs needed, GPUs billed) at the peak month of its term (issue 37: the largest
    month's fleet, month 1's when the traffic does not grow), each (rows,); nan where none."""
    tp = np.asarray(w.tp_choices, dtype=float)[np.maximum(plan.tp_index, 0)]
    needed = np.nanmax(plan.term.replicas_at_peak, axis=1, initial=-np.inf) * tp
    billed = np.nanmax(plan.term.gpus_at_peak, axis=1, initial=-np.inf)
    return np.where(plan.servable, needed, np.nan), np.where(plan.servable, billed, np.nan)
