"""Each bid's scaling curve: effective MFU from the smallest model-parallel unit to its block."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from clusterbid.core.costmodel.inputs import BidArrays, WorkloadScalars
from clusterbid.core.costmodel.training import step_breakdown


@dataclass(frozen=True, slots=True)
class ScalingCurve:
    gpus: tuple[int, ...]
    effective_mfu: tuple[float, ...]
    scaling_efficiency: tuple[float, ...]  # effective MFU / the bid's baseline MFU


def scaling_gpu_counts(w: WorkloadScalars, largest: int) -> np.ndarray:
    """Doublings of the model-parallel unit up to `largest`, plus the job size; the global batch
    must still give every pipeline at least one micro-batch."""
    unit = w.tp * w.pp * w.cp
    counts = {w.job_gpus}
    n = unit
    while n <= largest:
        counts.add(n)
        n *= 2
    counts.add(largest - largest % unit)
    max_dp = w.global_batch_sequences // w.micro_batch_size
    return np.array(sorted(c for c in counts if unit <= c and c // unit <= max_dp), dtype=float)


def scaling_curves(
    w: WorkloadScalars, b: BidArrays, largest_block: int | None = None
) -> list[ScalingCurve]:
    """One curve per bid, on a shared grid of GPU counts, cut at each bid's contiguous block.
    `largest_block`: the largest block of all the evaluation's bids when `b` holds only some."""
    own = int(np.max(b.contiguous_block_gpus)) if largest_block is None else largest_block
    largest = int(max(own, w.job_gpus))
    grid = scaling_gpu_counts(w, largest)
    step = step_breakdown(w, b, grid[:, None])  # (counts, bids)
    mfu = np.broadcast_to(step.effective_mfu, (len(grid), len(b.peak_flops))).T.tolist()
    efficiency = (
        np.broadcast_to(step.effective_mfu, (len(grid), len(b.peak_flops))) / b.baseline_mfu
    ).T.tolist()
    counts = grid.astype(int).tolist()
    curves = []
    for i, block in enumerate(b.contiguous_block_gpus.tolist()):
        keep = sum(1 for n in counts if n <= block)  # the grid is sorted
        curves.append(
            ScalingCurve(tuple(counts[:keep]), tuple(mfu[i][:keep]), tuple(efficiency[i][:keep]))
        )
    return curves
