"""Why a bid cannot serve the workload at all: shown instead of a cost, never scored."""

from __future__ import annotations

import numpy as np

from clusterbid.core.costmodel.gates import Finding
from clusterbid.core.costmodel.serving import Fleet, ReplicaGrid
from clusterbid.core.costmodel.serving_inputs import ServingArrays, ServingScalars


def _gb(value: float) -> str:
    return f"{value / 1e9:,.1f} GB"


def _diagnose(
    w: ServingScalars, b: ServingArrays, grid: ReplicaGrid, plan: Fleet, i: int, precision: str
) -> Finding:
    """The first rule, in the order a buyer would fix them, that leaves no way to serve."""
    if np.isnan(b.peak_flops[i]):
        return Finding(
            "precision_unsupported",
            f"this GPU has no {precision.upper()} tensor cores (e.g. FP8 on A100)",
        )
    tps = grid.tp[0, :, 0]
    usable = float(grid.usable_hbm_bytes[i, 0, 0])
    weights = grid.weights_per_gpu_bytes[0, :, 0]
    placeable = grid.placeable[i, :, 0]
    weights_fit = weights <= usable
    room = weights_fit & placeable
    if not room.any():
        fitting = tps[weights_fit]
        if fitting.size:
            t = int(fitting[0])
            return Finding(
                "replica_does_not_fit_offer",
                f"the weights fit at tensor parallelism {t} ({_gb(w.weight_bytes / t)} per GPU), "
                "but the offer holds "
                f"{int(b.gpus_offered[i]):,} GPUs with a largest contiguous block of "
                f"{int(b.contiguous_block_gpus[i]):,} "
                f"on {int(b.gpus_per_node[i])}-GPU nodes: one {t}-GPU replica cannot be placed",
            )
        if len(tps) == 1:
            return Finding(
                "weights_exceed_hbm",
                f"at tensor_parallel {int(tps[0])} the weights need {_gb(weights[0])} per GPU, "
                "more than the "
                f"{_gb(usable)} usable ({w.usable_hbm_fraction:.0%} of HBM) on this GPU: raise "
                "tensor_parallel "
                "or leave it blank",
            )
        return Finding(
            "weights_exceed_hbm",
            f"the weights need {_gb(weights[-1])} per GPU even at tensor parallelism "
            f"{int(tps[-1])}, more than "
            f"the {_gb(usable)} usable on this GPU",
        )
    one_sequence = grid.fits_hbm[i, :, 0] & placeable
    if not one_sequence.any():
        t = int(np.flatnonzero(room)[-1])  # the widest placeable replica leaves the most room
        left = usable - weights[t]
        return Finding(
            "kv_cache_exceeds_hbm",
            f"one sequence of {w.context_tokens:,.0f} tokens needs "
            f"{_gb(grid.kv_per_sequence_per_gpu_bytes[0, t, 0])} "
            f"of KV cache per GPU at tensor parallelism {int(tps[t])}, but only {_gb(left)} of "
            "usable HBM remain "
            "beside the weights, even at batch 1: shorten the context, use an FP8 KV cache, or "
            "raise tensor parallelism",
        )
    batch_one = grid.feasible[i, :, 0]
    if not batch_one.any():
        tpot = float(np.min(np.where(one_sequence, grid.tpot_s[i, :, 0], np.inf)))
        ttft = float(np.min(np.where(one_sequence, grid.ttft_s[i, :, 0], np.inf)))
        return Finding(
            "latency_targets_unmeetable",
            "no replica on this GPU meets the latency targets even at batch 1: the best time per "
            "output token is "
            f"{tpot * 1000:,.1f} ms (target {w.tpot_target_s * 1000:g} ms) and the best time to "
            "first token "
            f"{ttft * 1000:,.0f} ms (target {w.ttft_target_s * 1000:g} ms)",
        )
    return Finding(
        "not_enough_gpus",
        f"peak traffic ({w.peak_output_tokens_s:,.0f} output tokens/s, "
        f"+{100 * w.forecast_margin:g}% forecast margin, "
        f"N+{w.spare_replicas:g}) needs {plan.fewest_gpus_billed[i]:,.0f} GPUs "
        f"within the latency targets; the offer holds {int(b.gpus_offered[i]):,}",
    )


def serving_gates(
    w: ServingScalars, b: ServingArrays, grid: ReplicaGrid, plan: Fleet, precision: str
) -> list[list[Finding]]:
    """One finding per bid that cannot serve the workload (empty: it can)."""
    return [
        [] if plan.servable[i] else [_diagnose(w, b, grid, plan, i, precision)]
        for i in range(len(b.peak_flops))
    ]
