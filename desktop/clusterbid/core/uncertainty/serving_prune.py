"""Cells of a draw's replica grid that can never be its cheapest fleet, left out before any is
sized (issue 37 item 5: the serving Monte Carlo's time).

fleet() sizes each cell within the targets for its queueing headroom and bills it; most of a
draw's time went to gathering, bounding and billing some 57,000 such candidate fleets per pass.
Two bounds on a cell's peak-month bill need no sizing, only its replica's throughput and timing:

- below: the replicas its mean rate needs plus the spares, in whole nodes (headroom only adds
  replicas and the bill never falls as GPUs rise), as serving_sizing bounds it;
- above: the replicas at which fewer than the stated share of first tokens can wait at all beyond
  the slack (Erlang C <= 1, the top of replicas_with_headroom's bisection), plus the spares.

A cell whose upper bound fits the offer is certain to be a fleet the draw could buy, so the
draw's cheapest costs at most the least of those upper bounds. Any cell whose lower bound is
above that (with a margin far looser than the ranking's ties) can neither be the cheapest nor tie
with it, nor bill fewer GPUs than it: it is dropped from the cells fleet() sizes. Exact: every
band and chance is what the whole grid gives (tests/core/serving/test_serving_mc_prune.py runs
both ways). Only the Monte Carlo prunes; the point estimate sizes its whole grid as before.
"""

from __future__ import annotations

import math

import numpy as np

from clusterbid.core.costmodel.inputs import HOURS_PER_MONTH
from clusterbid.core.costmodel.serving import ReplicaGrid
from clusterbid.core.costmodel.serving_inputs import ServingArrays, ServingScalars

# A cell is kept unless its lowest bill exceeds the draw's certain bill by more than this share:
# far looser than fleet()'s ties (1e-12) and serving_sizing's (1e-9), so float rounding between
# the two ways of working a bill out can never drop a cell that ties.
KEEP_SLACK = 1e-6


def _most_gpus_within(b: ServingArrays, w: ServingScalars, bill: np.ndarray) -> np.ndarray:
    """Per row, the billed GPUs above which a peak month costs more than `bill` (fleet()'s bill,
    max(GPUs x hours, committed hours) x price x (1 + fees) + fixed fees, solved for GPUs: the
    bill only rises with GPUs, so comparing GPUs with this figure compares bills)."""
    fixed = b.recurring_fees_per_month + b.one_off_fees / w.service_months
    with np.errstate(divide="ignore", invalid="ignore"):
        hours = (bill - fixed) / (b.price_per_gpu_hour * (1.0 + b.fee_share))
    # A price of nil bills nothing whatever the GPUs: then no cell is ever left out.
    return np.asarray(np.where(np.isfinite(hours), hours / HOURS_PER_MONTH, np.inf))


def _bill(b: ServingArrays, w: ServingScalars, gpus: np.ndarray, row: np.ndarray) -> np.ndarray:
    """The peak-month bill of `gpus` billed GPUs on rows `row`, as fleet() bills a candidate."""
    hours = np.maximum(gpus * HOURS_PER_MONTH, b.committed_gpu_hours[row] / w.service_months)
    return np.asarray(
        hours * b.price_per_gpu_hour[row] * (1.0 + b.fee_share[row])
        + b.recurring_fees_per_month[row]
        + b.one_off_fees[row] / w.service_months
    )


def could_be_cheapest(w: ServingScalars, b: ServingArrays, grid: ReplicaGrid) -> np.ndarray:
    """The feasible cells of `grid` (rows x degrees x batches) that could be their row's cheapest
    fleet or tie with it; every other cell False."""
    shape = grid.tokens_per_s.shape
    flat = np.flatnonzero(grid.feasible & (grid.tokens_per_s > 0))
    # The flat index split by hand (cheaper than unravel_index): row-major, so rows come sorted.
    row, cell_in_row = np.divmod(flat, shape[1] * shape[2])
    degree, batch_at = np.divmod(cell_in_row, shape[2])

    def cell(values: np.ndarray) -> np.ndarray:  # each candidate's figure, as fleet() reads it
        return np.asarray(np.broadcast_to(values, shape).reshape(-1)[flat])

    tokens_per_s, tpot, ttft = cell(grid.tokens_per_s), cell(grid.tpot_s), cell(grid.ttft_s)
    prefill = np.broadcast_to(grid.prefill_s, (shape[0], shape[1], 1)).reshape(-1)[
        row * shape[1] + degree
    ]
    tp = np.asarray(grid.tp).reshape(-1)[degree]
    batch = np.asarray(grid.batch).reshape(-1)[batch_at]
    per_node = b.gpus_per_node[row]
    sized_peak = w.peak_output_tokens_s * (1.0 + w.forecast_margin)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        minimum = np.ceil(sized_peak / tokens_per_s)
        service = prefill + w.output_tokens * tpot
        slack = w.ttft_target_s - ttft
        load = sized_peak / w.output_tokens * service
        # The bisection's top (serving_queue.replicas_with_headroom: the formula + 1), one replica
        # more so that rounding here can never put the bound below what the bisection returns.
        top = np.ceil((load + service * math.log(1.0 / (1.0 - w.ttft_percentile)) / slack) / batch)
        most = np.maximum(minimum, top + 2.0) + w.spare_replicas
        most_billed = np.ceil(most * tp / per_node) * per_node
        least_billed = np.ceil((minimum + w.spare_replicas) * tp / per_node) * per_node
    certain = (slack > 0) & np.isfinite(service) & (most_billed <= b.gpus_offered[row])
    fewest_certain = np.full(shape[0], np.inf)
    if flat.size:  # per row, the fewest GPUs certain to buy a fleet (rows are sorted: reduceat)
        present, starts = np.unique(row, return_index=True)
        fewest_certain[present] = np.minimum.reduceat(
            np.where(certain, most_billed, np.inf), starts
        )
    rows_with = np.flatnonzero(np.isfinite(fewest_certain))
    ceiling = np.full(shape[0], np.inf)
    ceiling[rows_with] = _bill(b, w, fewest_certain[rows_with], rows_with) * (1.0 + KEEP_SLACK)
    keep = np.zeros(shape, dtype=bool)
    keep.reshape(-1)[flat] = ~(least_billed > _most_gpus_within(b, w, ceiling)[row])
    return keep
