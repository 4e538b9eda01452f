"""Each draw's cheapest fleet on one bid, over that bid's cells (issue 37 item 5).

serving.fleet chooses, for every row of a grid, the (degree, batch) whose fleet costs least per
million output tokens: the candidates within the targets are sized for the peak with queueing
headroom (only those that could be the cheapest: serving_sizing), billed in whole nodes, ranked,
and ties broken by tokens/s per GPU, then the earlier cell. Here the arrays run over one bid's
cells and a pass's draws (serving_cells), so the bid's prices are plain figures and each draw's
best is a reduction along the cells, not a gather per candidate; the few cells sized are read
by flat index. The rule and its arithmetic are fleet's and serving_sizing's, operation for
operation: the choice, its replicas and its GPUs are the same to the last bit (tests compare
them with fleet, draw by draw).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from clusterbid.core.costmodel.inputs import HOURS_PER_MONTH
from clusterbid.core.costmodel.serving import SECONDS_PER_MONTH
from clusterbid.core.costmodel.serving_burst import ChosenReplica
from clusterbid.core.costmodel.serving_inputs import ServingArrays, ServingScalars
from clusterbid.core.costmodel.serving_queue import replicas_with_headroom
from clusterbid.core.costmodel.serving_sizing import TIE_SLACK
from clusterbid.core.uncertainty.serving_cells import Cells, Scratch, Timing

_NONE = np.iinfo(np.int64).max


@dataclass(frozen=True, slots=True)
class Choice:
    """Each draw's chosen cell on one bid, (draws,); nan where no cell serves."""

    servable: np.ndarray
    replica: ChosenReplica
    replicas: np.ndarray  # spares included


@dataclass(frozen=True, slots=True)
class _Bill:
    """One bid's bill as a function of the GPUs billed (fleet's monthly_of, the bid's figures)."""

    per_node: float
    floor: float  # GPU-hours a month the commitment sets
    price: float
    fee_share: float
    recurring: float
    one_off_a_month: float

    # Each is fleet's arithmetic, operation for operation, worked in place (a pass's arrays are
    # large, and every fresh one costs as much as the operation).
    def billed(
        self, replicas: np.ndarray, tp: np.ndarray, out: np.ndarray | None = None
    ) -> np.ndarray:
        nodes = np.asarray(np.multiply(replicas, tp, out=out), dtype=float)  # `out` itself
        nodes /= self.per_node
        np.ceil(nodes, out=nodes)
        nodes *= self.per_node
        return nodes

    def monthly(self, billed: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
        bill = np.asarray(np.multiply(billed, HOURS_PER_MONTH, out=out), dtype=float)
        np.maximum(bill, self.floor, out=bill)  # GPU-hours
        bill *= self.price
        bill *= 1.0 + self.fee_share
        bill += self.recurring
        bill += self.one_off_a_month
        return bill


def _bill(w: ServingScalars, b: ServingArrays, i: int) -> _Bill:
    return _Bill(
        float(b.gpus_per_node[i]),
        float(b.committed_gpu_hours[i] / w.service_months),
        float(b.price_per_gpu_hour[i]),
        float(b.fee_share[i]),
        float(b.recurring_fees_per_month[i]),
        float(b.one_off_fees[i] / w.service_months),
    )


def _size_near_cheapest(
    w: ServingScalars,
    bill: _Bill,
    candidate: np.ndarray,
    columns: dict[str, np.ndarray],
    exact_slots: int,
    scratch: Scratch,
) -> np.ndarray:
    """serving_sizing.replicas_near_cheapest over (cells, draws): the replicas of every candidate
    that could be its draw's cheapest, inf for the rest (flat indices, cell-major)."""
    minimum, tp = columns["minimum"], columns["tp"]
    draws = minimum.shape[1]

    def size(at: np.ndarray) -> np.ndarray:
        return (
            replicas_with_headroom(
                minimum.take(at),
                columns["batch"].take(at // draws),
                w.peak_output_tokens_s * (1.0 + w.forecast_margin) / w.output_tokens,
                columns["service"].take(at),
                w.ttft_target_s - columns["ttft"].take(at),
                w.ttft_percentile,
                exact_slots,
            )
            + w.spare_replicas
        )

    bound = np.add(minimum, w.spare_replicas, out=scratch.get("bound", minimum.shape))
    bound = bill.monthly(bill.billed(bound, tp, out=bound), out=bound)
    open_ = np.logical_not(candidate, out=scratch.get("open", minimum.shape, bool))
    np.copyto(bound, np.inf, where=open_)
    at_lowest = np.less_equal(bound, bound.min(axis=0), out=open_)
    at_lowest &= candidate
    # Each draw's earliest cell at its lowest bound: the flat indices run cell-major, so a draw's
    # first among them (np.unique's first occurrence) is its earliest cell.
    lowest = np.flatnonzero(at_lowest)
    scouts = lowest[np.unique(lowest % draws, return_index=True)[1]]
    replicas = scratch.get("replicas", minimum.shape)
    replicas.fill(np.inf)
    replicas.put(scouts, size(scouts))
    best = np.full(draws, np.inf)
    found = scouts[np.isfinite(replicas.take(scouts))]
    best[found % draws] = bill.monthly(bill.billed(replicas.take(found), tp.take(found // draws)))
    rest = np.less_equal(bound, best * (1.0 + TIE_SLACK), out=open_)
    rest &= candidate
    rest.put(scouts, False)  # sized already
    at = np.flatnonzero(rest)
    if at.size:
        replicas.put(at, size(at))
    return replicas


def cheapest(
    w: ServingScalars,
    b: ServingArrays,
    i: int,
    cells: Cells,
    t: Timing,
    exact_slots: int,
    scratch: Scratch | None = None,
) -> Choice:
    """Bid i's cheapest cell in each draw of the pass (serving.fleet's rule); `scratch`: where
    the pass's arrays are worked (serving_cells.Scratch)."""
    bill = _bill(w, b, i)
    scratch = Scratch(0) if scratch is None else scratch
    shape = t.tpot_s.shape
    throughput = np.divide(cells.batch, t.tpot_s, out=scratch.get("throughput", shape))
    candidate = _candidate(w, cells, t, throughput, scratch)
    minimum = scratch.get("minimum", shape)
    with np.errstate(divide="ignore"):
        np.divide(w.peak_output_tokens_s * (1.0 + w.forecast_margin), throughput, out=minimum)
    np.ceil(minimum, out=minimum)
    service = np.multiply(w.output_tokens, t.tpot_s, out=scratch.get("service", shape))
    service += t.prefill_s
    columns = {
        "minimum": minimum,
        "tp": cells.tp,
        "batch": cells.batch,
        "service": service,
        "ttft": t.ttft_s,
    }
    replicas = _size_near_cheapest(w, bill, candidate, columns, exact_slots, scratch)
    ok, at, billed = _ranked_first(w, bill, float(b.gpus_offered[i]), replicas, throughput, cells)
    draws = replicas.shape[1]

    def pick(values: np.ndarray) -> np.ndarray:
        picked = np.full(draws, np.nan)
        picked[ok] = values
        return picked

    replica = ChosenReplica(
        pick(throughput.take(at)),
        pick(cells.batch.take(at // draws)),
        pick(cells.tp.take(at // draws)),
        pick(service.take(at)),
        pick(t.ttft_s.take(at)),
        pick(billed),
    )
    return Choice(ok, replica, pick(replicas.take(at)))


def _candidate(
    w: ServingScalars, cells: Cells, t: Timing, throughput: np.ndarray, scratch: Scratch
) -> np.ndarray:
    """Whether each cell serves each draw within both targets (fleet's candidates)."""
    shape = throughput.shape
    candidate, other = scratch.get("candidate", shape, bool), scratch.get("other", shape, bool)
    with np.errstate(invalid="ignore"):
        np.less_equal(t.tpot_s, w.tpot_target_s, out=candidate)
        candidate &= np.less_equal(t.ttft_s, w.ttft_target_s, out=other)
        candidate &= np.greater(throughput, 0, out=other)
    candidate &= cells.fits
    return candidate


def _ranked_first(
    w: ServingScalars,
    bill: _Bill,
    offered: float,
    replicas: np.ndarray,
    throughput: np.ndarray,
    cells: Cells,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(whether each draw serves, (draws,); the flat index of each serving draw's choice, and its
    GPUs billed): the cheapest per million tokens among the sized cells, ties to the most tokens/s
    per GPU, then the earliest cell. Only the cells sized (a few a draw) can be chosen, so they
    alone are billed and ranked."""
    draws = replicas.shape[1]
    sized = np.flatnonzero(np.isfinite(replicas))
    draw, cell = sized % draws, sized // draws
    billed = bill.billed(replicas.take(sized), cells.tp.take(cell))
    per_million = bill.monthly(billed) / (w.average_output_tokens_s * SECONDS_PER_MONTH) * 1e6
    ranked = np.where(billed <= offered, per_million, np.inf)
    least = np.full(draws, np.inf)
    np.minimum.at(least, draw, ranked)
    tied = np.isfinite(ranked) & (ranked <= least[draw] * (1 + 1e-12))
    rate = throughput.take(sized) / cells.tp.take(cell)
    best_rate = np.full(draws, -1.0)
    np.maximum.at(best_rate, draw, np.where(tied, rate, -1.0))
    winners = np.flatnonzero(tied & (rate >= best_rate[draw]))
    first = np.full(draws, _NONE)
    np.minimum.at(first, draw[winners], winners)  # the earliest cell (cell-major order)
    ok = first != _NONE
    return ok, sized[first[ok]], billed[first[ok]]
