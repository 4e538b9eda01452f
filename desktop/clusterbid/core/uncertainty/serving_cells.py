"""The serving Monte Carlo's cells (issue 37 item 5): for each bid, the (tensor-parallel degree,
batch) cells some draw can reach, and every part of a replica's timing that no draw moves, worked
out once; a pass of draws then times each bid's cells as whole arrays over (cells x draws).

A draw moves a replica's timing through two figures alone, the bid's drawn HBM and compute
efficiencies; the weight shard, the KV cache read per step, the matmul work, the all-reduces, the
fit in HBM and on the offer are the bid's own whatever the draw. Each array here is worked out
with the very operations of serving_replica (replica_grid and decode_step), in the same order, so
a cell's time per output token and first-token time are those of the grid to the last bit (tests
check it against the grid, draw by draw).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from clusterbid.core.costmodel.serving_inputs import ServingArrays, ServingScalars
from clusterbid.core.costmodel.serving_replica import ReplicaComm, kv_tokens_held

_PER_CELL: tuple[str, ...] = ("degree", "batch_index", "tp", "batch", "fits", "kv", "flops")
_PER_CELL += ("comm", "position", "least")


@dataclass(frozen=True, slots=True)
class Cells:
    """One bid's cells in the grid's order (degree-major, then batch): columns (cells, 1), so that
    a pass's arrays run (cells, draws); and what depends on the degree alone, (degrees, 1)."""

    degree: np.ndarray  # (cells,) int: index in the searched degrees
    batch_index: np.ndarray  # (cells,) int: index in the searched batches
    tp: np.ndarray
    batch: np.ndarray
    fits: np.ndarray  # bool: fits in HBM and on the offer (no draw moves either)
    kv: np.ndarray  # the batch's KV bytes read per step
    flops: np.ndarray  # one decode step's matmul work
    comm: np.ndarray  # one decode step's all-reduces
    degree_tp: np.ndarray  # (degrees, 1): each searched degree
    degree_weights: np.ndarray  # the weight shard's bytes (read over the drawn bandwidth)
    degree_tp_peak: np.ndarray  # the replica's dense peak before the drawn compute efficiency
    degree_prefill_comm: np.ndarray  # one prompt's all-reduces
    # (cells,): each cell's place in the grid's order (ties go to the earlier one), and the least
    # bound its fleet can have in any draw (serving_rows.by_least_bound; -inf: not worked out).
    position: np.ndarray
    least: np.ndarray

    def rows(self, at: np.ndarray | slice) -> Cells:
        """The cells at `at` (a mask, an order or a block of rows; what depends on the degree
        alone as it is)."""
        return replace(self, **{name: getattr(self, name)[at] for name in _PER_CELL})


class Scratch:
    """Arrays a run's passes work in, kept from pass to pass (issue 37 item 5): a pass's arrays
    are large, and each fresh one costs the pages the allocator returned to the system after the
    last pass as much again as the arithmetic (about a third of the CPU at 20,000 draws)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._kept: dict[str, np.ndarray] = {}

    def get(self, name: str, shape: tuple[int, int], dtype: type = float) -> np.ndarray:
        """The array `name`, C-ordered, of `shape` (its figures are what was last left there)."""
        kept = self._kept.get(name)
        need = shape[0] * shape[1]
        if kept is None or kept.size < need or kept.dtype != np.dtype(dtype):
            kept = np.empty(max(need, self.size), dtype=dtype)
            self._kept[name] = kept
        return kept[:need].reshape(shape)


@dataclass(frozen=True, slots=True)
class Timing:
    """A pass of draws over one bid's cells, (cells, draws)."""

    tpot_s: np.ndarray
    ttft_s: np.ndarray
    prefill_s: np.ndarray


def bid_cells(
    w: ServingScalars,
    b: ServingArrays,
    batches: np.ndarray,
    comm: ReplicaComm,
    i: int,
    cells: np.ndarray,
) -> Cells:
    """Bid i's cells where `cells` (degrees, batches) is true; `b` and `comm`: per bid."""
    tp = np.asarray(w.tp_choices, dtype=float)[:, None]
    batch = np.asarray(batches, dtype=float)[None, :]
    kv_shards = np.minimum(tp, w.kv_heads)
    weights = w.weight_bytes / tp
    kv_full = w.kv_bytes_per_token * w.context_tokens / kv_shards
    usable = b.hbm_bytes[i] * w.usable_hbm_fraction
    kv_batch = w.kv_bytes_per_token * kv_tokens_held(w, batch) / kv_shards
    fits = (weights + kv_full <= usable) & (weights + kv_batch <= usable)
    spans_nodes = tp > b.gpus_per_node[i]
    placeable = (tp <= b.gpus_offered[i]) & (~spans_nodes | (tp <= b.contiguous_block_gpus[i]))
    step_tokens = batch * (1.0 + w.prompt_tokens / w.output_tokens)
    shape = (tp.size, batch.size)
    full = {
        "tp": tp,
        "batch": batch,
        "fits": fits & placeable,
        "kv": batch * w.kv_bytes_per_token * w.mean_decode_context / kv_shards,
        "flops": 2.0 * w.active_params * step_tokens,
        "comm": comm.step_s[i],
    }
    degree, batch_index = np.nonzero(cells)
    picked = {
        name: np.asarray(np.broadcast_to(values, shape)[degree, batch_index])[:, None]
        for name, values in full.items()
    }
    return Cells(
        degree=degree,
        batch_index=batch_index,
        **picked,
        degree_tp=tp,
        degree_weights=weights,
        degree_tp_peak=tp * b.peak_flops[i],
        degree_prefill_comm=np.asarray(comm.prefill_s[i]).reshape(tp.shape),
        position=np.arange(degree.size),
        least=np.full(degree.size, -np.inf),
    )


def timing(
    w: ServingScalars,
    cells: Cells,
    bandwidth: float,
    peak_flops: float,
    hbm_efficiency: np.ndarray,
    compute_efficiency: np.ndarray,
    scratch: Scratch | None = None,
    tpot_out: np.ndarray | None = None,
) -> Timing:
    """Each draw's time per output token, first-token time and prompt time at each cell, from the
    bid's drawn efficiencies (draws,) (replica_grid's formulas, its order of operations); what
    depends on the degree alone is worked out per degree and spread over its cells. `scratch`:
    where the arrays are worked (the returned ones are its, until the next timing); `tpot_out`:
    where the time per output token is left instead (cells, draws)."""
    scratch = Scratch(0) if scratch is None else scratch
    shape = (cells.degree.size, hbm_efficiency.size)
    tpot, spread = scratch.get("tpot", shape), scratch.get("spread", shape)
    drawn_bandwidth = bandwidth * hbm_efficiency
    # Each step in place, into arrays kept from pass to pass (Scratch).
    np.take(cells.degree_tp_peak * compute_efficiency, cells.degree, axis=0, out=tpot, mode="clip")
    np.divide(cells.flops, tpot, out=tpot)
    weights = cells.degree_weights / drawn_bandwidth
    np.take(weights, cells.degree, axis=0, out=spread, mode="clip")
    np.maximum(spread, tpot, out=tpot)
    tpot += np.divide(cells.kv, drawn_bandwidth, out=spread)
    tpot = np.add(tpot, cells.comm, out=tpot if tpot_out is None else tpot_out)
    prefill = prefill_s(w, cells, peak_flops, compute_efficiency)
    spread = np.take(prefill, cells.degree, axis=0, out=scratch.get("prefill", shape), mode="clip")
    return Timing(tpot, np.add(spread, tpot, out=scratch.get("ttft", shape)), spread)


def prefill_s(
    w: ServingScalars, cells: Cells, peak_flops: float, compute_efficiency: np.ndarray
) -> np.ndarray:
    """A prompt's prefill time at each searched degree and drawn compute efficiency, (degrees,
    draws) (replica_grid's formula, its order of operations)."""
    return np.asarray(
        2.0
        * w.active_params
        * w.prompt_tokens
        / (cells.degree_tp * (peak_flops * compute_efficiency))
        + cells.degree_prefill_comm
    )
