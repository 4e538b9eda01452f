"""A pass's figures over one bid's cells, worked out only where a draw can need them (issue 37
item 5).

Each draw's cheapest fleet (serving_cheapest) looks at a cell only through its bound, the bill of
the fewest replicas that carry the peak before headroom: the draw's lowest bound picks its scout,
and the cells whose bound is within the scout's bill are sized beside it. A cell's bound is never
below its bound at the capped efficiencies, which no draw exceeds (by_least_bound): every step
from the efficiencies to the bill only rises as they fall, rounding included, since IEEE
operations are monotone. So with a bid's cells in the order of that least bound, a draw needs
only the first rows, those whose least bound is within its threshold; a row left out has a bound
above it whatever the draw, which is what its figures would have given there.

The rows are worked out a block at a time, the first block for every draw; the draws are then put
in the order of their lowest bound over it, so that the draws a later block is worked out for are
the last ones, a run of them: each step reads and writes a block of rows over a run of draws, in
arrays kept from pass to pass (serving_cells.Scratch). Every figure is worked out with
serving_cheapest's operations, in its order: the same to the last bit.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import numpy as np

from clusterbid.core.costmodel.inputs import HOURS_PER_MONTH
from clusterbid.core.costmodel.serving_inputs import ServingArrays, ServingScalars
from clusterbid.core.uncertainty.serving_cells import Cells, Scratch, prefill_s, timing

# Rows (in bound order) worked out for every draw, then per block for the draws that reach them.
FIRST_BLOCK = 16
BLOCK = 8


@dataclass(frozen=True, slots=True)
class Bill:
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
        if math.frexp(self.per_node)[0] == 0.5:  # a power of two: its reciprocal is exact and
            nodes *= 1.0 / self.per_node  # multiplying by it rounds as dividing does
        else:
            nodes /= self.per_node
        np.ceil(nodes, out=nodes)
        nodes *= self.per_node
        return nodes

    def monthly(self, billed: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
        # The GPUs billed are never negative, so a nil floor, a factor of 1 and, on a bill that
        # cannot be -0 (a positive price), a nil fee change no figure: those steps are skipped.
        bill = np.asarray(np.multiply(billed, HOURS_PER_MONTH, out=out), dtype=float)
        if not (self.floor == 0.0 and not np.signbit(self.floor)):
            np.maximum(bill, self.floor, out=bill)  # GPU-hours
        bill *= self.price
        if 1.0 + self.fee_share != 1.0:
            bill *= 1.0 + self.fee_share
        positive = self.price > 0 and 1.0 + self.fee_share > 0
        for fee in (self.recurring, self.one_off_a_month):
            if not (fee == 0.0 and (positive or np.signbit(fee))):
                bill += fee
        return bill


def bill_of(w: ServingScalars, b: ServingArrays, i: int) -> Bill:
    return Bill(
        float(b.gpus_per_node[i]),
        float(b.committed_gpu_hours[i] / w.service_months),
        float(b.price_per_gpu_hour[i]),
        float(b.fee_share[i]),
        float(b.recurring_fees_per_month[i]),
        float(b.one_off_fees[i] / w.service_months),
    )


@dataclass(frozen=True, slots=True)
class Drawn:
    """One bid's drawn efficiencies over a pass (draws,), and the figures they scale."""

    bandwidth: float
    peak_flops: float
    hbm: np.ndarray
    compute: np.ndarray


def by_least_bound(w: ServingScalars, b: ServingArrays, i: int, cells: Cells) -> Cells:
    """Bid i's cells in the order of the least bound each can have in any draw, its bound at the
    capped efficiencies (ties in the grid's order); a bill that could fall as GPUs rise leaves
    every cell's least bound -inf, as does a bound that is not a number."""
    bill = bill_of(w, b, i)
    hbm = np.maximum(b.hbm_efficiency[i : i + 1], 1.0)
    flops = np.maximum(b.compute_efficiency[i : i + 1], 1.0)
    t = timing(w, cells, b.hbm_bandwidth_bytes_s[i], b.peak_flops[i], hbm, flops)
    with np.errstate(divide="ignore", invalid="ignore"):
        minimum = w.peak_output_tokens_s * (1.0 + w.forecast_margin) / (cells.batch / t.tpot_s)
    np.ceil(minimum, out=minimum)
    least = bill.monthly(bill.billed(minimum + w.spare_replicas, cells.tp))[:, 0]
    if not (bill.price >= 0 and 1.0 + bill.fee_share >= 0):
        least[:] = -np.inf
    least[np.isnan(least)] = -np.inf
    order = np.argsort(least, kind="stable")
    return replace(cells.rows(order), least=least[order])


def _slow_last(w: ServingScalars, cells: Cells, drawn: Drawn, scratch: Scratch) -> np.ndarray:
    """The draws in the order of the first row's time per token (its least bound is the lowest):
    the slow draws, whose thresholds reach further down the rows, last. Any order gives the same
    figures; this one keeps the draws a block is worked out for together."""
    if not cells.tp.size:
        return np.arange(drawn.hbm.size)
    first = cells.rows(slice(0, 1))
    t = timing(w, first, drawn.bandwidth, drawn.peak_flops, drawn.hbm, drawn.compute, scratch)
    return np.argsort(t.tpot_s[0])  # ties in any order (quicker than a stable sort here)


class Rows:
    """A pass's figures over one bid's cells in bound order, (cells, draws), draws in `order`:
    block k's rows are worked out for the draws from start[k] on (the module's rule). Only those
    entries are ever read."""

    def __init__(
        self, w: ServingScalars, bill: Bill, cells: Cells, drawn: Drawn, scratch: Scratch
    ) -> None:
        n, draws = cells.tp.size, drawn.hbm.size
        self.w, self.bill, self.cells, self.scratch = w, bill, cells, scratch
        shape = (n, draws)
        self.bound, self.minimum = scratch.get("bound", shape), scratch.get("minimum", shape)
        self.candidate = scratch.get("candidate", shape, bool)
        self.throughput, self.tpot = scratch.get("throughput", shape), scratch.get("tpot_s", shape)
        first = min(FIRST_BLOCK, n)
        self.edges = sorted({0, *range(first, n, BLOCK), n})
        self.start = [draws] * (len(self.edges) - 1)
        self.order = _slow_last(w, cells, drawn, scratch)
        self.drawn = replace(drawn, hbm=drawn.hbm[self.order], compute=drawn.compute[self.order])
        self.prefill = prefill_s(w, cells, drawn.peak_flops, self.drawn.compute)
        if n:
            self._work(0, 0)

    def blocks(self) -> list[tuple[slice, int]]:
        """Each block worked out: its rows and the first draw it is worked out for."""
        return [
            (slice(a, b), start)
            for a, b, start in zip(self.edges, self.edges[1:], self.start, strict=False)
            if start < self.bound.shape[1]
        ]

    def hold(self, at: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(a slot's hold, the prefill and every output token; the replica's own first-token
        time) at the flat indices `at` of worked entries: serving_replica's and timing's
        arithmetic, worked out only where it is read."""
        draws = self.bound.shape[1]
        prefill = self.prefill.take(self.cells.degree.take(at // draws) * draws + at % draws)
        tpot = self.tpot.take(at)
        return self.w.output_tokens * tpot + prefill, prefill + tpot

    def extend(self, least: np.ndarray) -> None:
        """Work out, for each draw, every row whose least bound is at most `least` (draws,)."""
        need = np.searchsorted(self.cells.least, least, side="right")
        for k, a in enumerate(self.edges[:-1]):
            wanted = need > a
            if wanted.any():
                self._work(k, int(np.argmax(wanted)))

    def _work(self, k: int, start: int) -> None:
        """serving_cheapest's figures for block k's rows at the draws from `start` on that it
        is not yet worked out for (its arithmetic, operation for operation)."""
        if start >= self.start[k]:
            return
        rows, draws = slice(self.edges[k], self.edges[k + 1]), slice(start, self.start[k])
        w, cells, d = self.w, self.cells.rows(rows), self.drawn
        self.start[k] = start
        hbm, compute, tpot = d.hbm[draws], d.compute[draws], self.tpot[rows, draws]
        t = timing(w, cells, d.bandwidth, d.peak_flops, hbm, compute, self.scratch, tpot)
        throughput = np.divide(cells.batch, t.tpot_s, out=self.throughput[rows, draws])
        candidate = self.candidate[rows, draws]
        other = self.scratch.get("other", (candidate.shape[0], candidate.shape[1]), bool)
        with np.errstate(invalid="ignore"):
            np.less_equal(t.tpot_s, w.tpot_target_s, out=candidate)
            candidate &= np.less_equal(t.ttft_s, w.ttft_target_s, out=other)
            candidate &= np.greater(throughput, 0, out=other)
        candidate &= cells.fits
        minimum = self.minimum[rows, draws]
        with np.errstate(divide="ignore"):
            np.divide(w.peak_output_tokens_s * (1.0 + w.forecast_margin), throughput, out=minimum)
        np.ceil(minimum, out=minimum)
        bound = np.add(minimum, w.spare_replicas, out=self.bound[rows, draws])
        self.bill.monthly(self.bill.billed(bound, cells.tp, out=bound), out=bound)
        np.copyto(bound, np.inf, where=np.logical_not(candidate, out=other))
