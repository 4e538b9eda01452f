"""Each draw's cheapest fleet on one bid, over that bid's cells (issue 37 item 5).

serving.fleet chooses, for every row of a grid, the (degree, batch) whose fleet costs least per
million output tokens: the candidates within the targets are sized for the peak with queueing
headroom (only those that could be the cheapest: serving_sizing), billed in whole nodes, ranked,
and ties broken by tokens/s per GPU, then the earlier cell. Here the rows are one bid's draws and
the columns its cells (serving_cells), so the bid's prices are plain figures and each row's best
is a reduction along the cells, not a gather per candidate. The rule and its arithmetic are
fleet's and serving_sizing's, operation for operation: the choice, its replicas and its GPUs are
the same to the last bit (tests compare them with fleet, draw by draw).
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
from clusterbid.core.uncertainty.serving_cells import Cells, Timing


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

    def billed(self, replicas: np.ndarray, tp: np.ndarray) -> np.ndarray:
        return np.asarray(np.ceil(replicas * tp / self.per_node) * self.per_node, dtype=float)

    def monthly(self, billed: np.ndarray) -> np.ndarray:
        gpu_hours = np.maximum(billed * HOURS_PER_MONTH, self.floor)
        return np.asarray(
            gpu_hours * self.price * (1.0 + self.fee_share) + self.recurring + self.one_off_a_month
        )


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
) -> np.ndarray:
    """serving_sizing.replicas_near_cheapest over (draws, cells): the replicas of every candidate
    that could be its draw's cheapest, inf for the rest."""
    minimum, tp = columns["minimum"], columns["tp"]

    def size(at: tuple[np.ndarray, ...]) -> np.ndarray:
        return (
            replicas_with_headroom(
                minimum[at],
                np.broadcast_to(columns["batch"], minimum.shape)[at],
                w.peak_output_tokens_s * (1.0 + w.forecast_margin) / w.output_tokens,
                columns["service"][at],
                w.ttft_target_s - columns["ttft"][at],
                w.ttft_percentile,
                exact_slots,
            )
            + w.spare_replicas
        )

    bound = np.where(candidate, bill.monthly(bill.billed(minimum + w.spare_replicas, tp)), np.inf)
    lowest = bound.min(axis=1)
    at_lowest = candidate & (bound <= lowest[:, None])
    rows = np.flatnonzero(at_lowest.any(axis=1))
    scouts = (rows, np.argmax(at_lowest[rows], axis=1))
    replicas = np.full(minimum.shape, np.inf)
    sized = np.zeros(minimum.shape, dtype=bool)
    replicas[scouts], sized[scouts] = size(scouts), True
    best = np.full(minimum.shape[0], np.inf)
    found = np.isfinite(replicas[scouts])
    hit = (scouts[0][found], scouts[1][found])
    best[hit[0]] = bill.monthly(bill.billed(replicas[hit], np.broadcast_to(tp, minimum.shape)[hit]))
    rest = np.nonzero(candidate & ~sized & (bound <= best[:, None] * (1.0 + TIE_SLACK)))
    if rest[0].size:
        replicas[rest] = size(rest)
    return replicas


def cheapest(
    w: ServingScalars, b: ServingArrays, i: int, cells: Cells, t: Timing, exact_slots: int
) -> Choice:
    """Bid i's cheapest cell in each draw of the pass (serving.fleet's rule)."""
    bill = _bill(w, b, i)
    throughput = cells.batch / t.tpot_s
    with np.errstate(invalid="ignore"):
        candidate = (
            cells.fits
            & (t.tpot_s <= w.tpot_target_s)
            & (t.ttft_s <= w.ttft_target_s)
            & (throughput > 0)
        )
    with np.errstate(divide="ignore"):
        minimum = np.ceil(w.peak_output_tokens_s * (1.0 + w.forecast_margin) / throughput)
    service = t.prefill_s + w.output_tokens * t.tpot_s
    columns = {
        "minimum": minimum,
        "tp": cells.tp,
        "batch": cells.batch,
        "service": service,
        "ttft": t.ttft_s,
    }
    replicas = _size_near_cheapest(w, bill, candidate, columns, exact_slots)
    # Only the sized cells can be chosen (a few a draw): they are billed and ranked alone, in the
    # grid's order, each draw's run of them reduced at once.
    sized = np.nonzero(np.isfinite(replicas))
    row, cell = sized
    billed = bill.billed(replicas[sized], cells.tp[cell])
    per_million = bill.monthly(billed) / (w.average_output_tokens_s * SECONDS_PER_MONTH) * 1e6
    ranked = np.where(billed <= b.gpus_offered[i], per_million, np.inf)
    starts = np.flatnonzero(np.r_[True, row[1:] != row[:-1]]) if row.size else row
    least = np.full(replicas.shape[0], np.inf)
    least[row[starts]] = np.minimum.reduceat(ranked, starts) if row.size else least[:0]
    tied = np.isfinite(ranked) & (ranked <= least[row] * (1 + 1e-12))
    rate = throughput[sized] / cells.tp[cell]
    best_rate = np.full(replicas.shape[0], -1.0)
    if row.size:
        best_rate[row[starts]] = np.maximum.reduceat(np.where(tied, rate, -1.0), starts)
    winners = np.flatnonzero(tied & (rate >= best_rate[row]))
    first = winners[np.r_[True, row[winners][1:] != row[winners][:-1]]] if winners.size else winners
    ok = np.zeros(replicas.shape[0], dtype=bool)
    ok[row[first]] = True
    at = (row[first], cell[first])

    def pick(values: np.ndarray, chosen: np.ndarray | None = None) -> np.ndarray:
        picked = np.full(ok.size, np.nan)
        picked[at[0]] = np.broadcast_to(values, replicas.shape)[at] if chosen is None else chosen
        return picked

    replica = ChosenReplica(
        pick(throughput),
        pick(cells.batch),
        pick(cells.tp),
        pick(service),
        pick(t.ttft_s),
        pick(billed, billed[first]),
    )
    return Choice(ok, replica, pick(replicas))
