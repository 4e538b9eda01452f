"""Decode and prefill time per replica, the largest batch within the targets, and the fleet's cost.

Arrays run over (bids, tensor-parallel degrees, batch sizes); every formula is in
resources/methodology.md, section "Serving".
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from clusterbid.core.costmodel.inputs import HOURS_PER_MONTH
from clusterbid.core.costmodel.serving_inputs import ServingArrays, ServingScalars

# Continuous-batching engines rarely run more sequences per replica than this; the batch
# search stops here.
MAX_BATCH = 1024
BATCHES = np.arange(1, MAX_BATCH + 1, dtype=float)
SECONDS_PER_MONTH = HOURS_PER_MONTH * 3600.0


def _per_bid(values: np.ndarray) -> np.ndarray:
    return np.asarray(values, dtype=float)[:, None, None]


def tp_communication_s(w: ServingScalars, b: ServingArrays, tp: np.ndarray) -> np.ndarray:
    """Latency a forward pass pays when its tensor-parallel group spans fabric segments: two
    all-reduces per layer, each a ring over the segments of 2 (segments - 1) fabric steps.
    Inside NVLink (or one node) it is taken as nil: microseconds, inside the HBM efficiency."""
    segments = np.ceil(tp / _per_bid(b.fast_domain_gpus))
    return 2.0 * w.num_layers * 2.0 * (segments - 1.0) * _per_bid(b.fabric_step_latency_s)


@dataclass(frozen=True, slots=True)
class ReplicaGrid:
    """One replica (TP GPUs) at each batch size, shape (bids, TP degrees, batches)."""

    tp: np.ndarray  # (1, T, 1)
    batch: np.ndarray  # (1, 1, B)
    weights_per_gpu_bytes: np.ndarray  # (1, T, 1)
    kv_per_sequence_per_gpu_bytes: np.ndarray  # one full-length sequence, (1, T, 1)
    usable_hbm_bytes: np.ndarray  # (bids, 1, 1)
    fits_hbm: np.ndarray
    placeable: np.ndarray  # the replica fits the offer (GPUs, and one fabric block when it spans nodes)
    memory_s: np.ndarray
    compute_s: np.ndarray
    comm_s: np.ndarray
    step_s: np.ndarray  # one decode step of the whole batch
    prefill_s: np.ndarray  # one request's prompt
    tpot_s: np.ndarray  # time per output token, prefills of arriving requests included
    ttft_s: np.ndarray
    tokens_per_s: np.ndarray  # output tokens per second of the replica
    feasible: np.ndarray


def replica_grid(w: ServingScalars, b: ServingArrays) -> ReplicaGrid:
    """Every (TP, batch) a bid could run a replica at, with its latency and throughput.

    decode step = max(bytes read / (HBM bandwidth x efficiency), 2 x active params x batch /
    (TP x peak x compute efficiency)) + fabric latency, where bytes read per GPU are the weight
    shard once per step plus the KV cache of every sequence in the batch. Requests arriving at
    batch/output tokens per step each need a prefill, which stalls decoding: time per output
    token = step + batch x prefill / output tokens. Time to first token = prefill + one step.
    """
    tp = np.asarray(w.tp_choices, dtype=float)[None, :, None]
    batch = BATCHES[None, None, :]
    kv_shards = np.minimum(tp, w.kv_heads)  # GQA: ranks beyond the KV heads hold copies
    weights = w.weight_bytes / tp
    kv_full = w.kv_bytes_per_token * w.context_tokens / kv_shards
    usable = _per_bid(b.hbm_bytes) * w.usable_hbm_fraction
    fits = weights + batch * kv_full <= usable
    spans_nodes = tp > _per_bid(b.gpus_per_node)
    placeable = (tp <= _per_bid(b.gpus_offered)) & (~spans_nodes | (tp <= _per_bid(b.contiguous_block_gpus)))
    bytes_read = weights + batch * w.kv_bytes_per_token * w.mean_decode_context / kv_shards
    memory = bytes_read / (_per_bid(b.hbm_bandwidth_bytes_s) * _per_bid(b.hbm_efficiency))
    peak = _per_bid(b.peak_flops) * w.compute_efficiency
    compute = 2.0 * w.active_params * batch / (tp * peak)
    comm = tp_communication_s(w, b, tp)
    step = np.maximum(memory, compute) + comm
    prefill = 2.0 * w.active_params * w.prompt_tokens / (tp * peak) + comm
    tpot = step + batch * prefill / w.output_tokens
    ttft = prefill + step
    with np.errstate(invalid="ignore"):
        feasible = fits & placeable & (tpot <= w.tpot_target_s) & (ttft <= w.ttft_target_s)
    return ReplicaGrid(
        tp=tp, batch=batch, weights_per_gpu_bytes=weights, kv_per_sequence_per_gpu_bytes=kv_full,
        usable_hbm_bytes=usable, fits_hbm=fits, placeable=placeable, memory_s=memory, compute_s=compute,
        comm_s=comm, step_s=step, prefill_s=prefill, tpot_s=tpot, ttft_s=ttft,
        tokens_per_s=batch / tpot, feasible=feasible,
    )


@dataclass(frozen=True, slots=True)
class Fleet:
    """The cheapest way to carry the peak on each bid, shape (bids,); nan/-1 where none exists."""

    tp_index: np.ndarray  # int, -1: no feasible TP degree
    batch_index: np.ndarray  # int, -1: none
    replica_tokens_per_s: np.ndarray
    replicas: np.ndarray
    gpus_needed: np.ndarray
    gpus_billed: np.ndarray  # whole nodes
    servable: np.ndarray  # bool: some TP degree meets the targets within the GPUs offered
    fewest_gpus_billed: np.ndarray  # at any TP degree meeting the targets, offer size aside (inf: none)
    monthly_cost: np.ndarray
    cost_per_million_tokens: np.ndarray
    fabric_cost_per_month: np.ndarray  # itemised fabric share of the GPU bill (nan: not itemised)


def fleet(w: ServingScalars, b: ServingArrays, grid: ReplicaGrid) -> Fleet:
    """Per TP degree, the batch with the most output tokens per second within the targets;
    replicas for the peak; GPUs billed at peak provisioning in whole nodes all month; then the
    TP degree with the lowest cost per million output tokens at the average load."""
    throughput = np.where(grid.feasible, grid.tokens_per_s, 0.0)
    best_batch = np.argmax(throughput, axis=2)  # (bids, T)
    best = np.take_along_axis(throughput, best_batch[..., None], axis=2)[..., 0]
    tp = grid.tp[:, :, 0]
    with np.errstate(divide="ignore", invalid="ignore"):
        replicas = np.where(best > 0, np.ceil(w.peak_output_tokens_s / best), np.inf)
    gpus = replicas * tp
    per_node = b.gpus_per_node[:, None]
    billed = np.ceil(gpus / per_node) * per_node
    capacity_ok = billed <= b.gpus_offered[:, None]
    gpu_hours = np.maximum(billed * HOURS_PER_MONTH, b.committed_gpu_hours[:, None] / w.service_months)
    monthly = (
        gpu_hours * b.price_per_gpu_hour[:, None]
        + b.recurring_fees_per_month[:, None]
        + b.one_off_fees[:, None] / w.service_months
    )
    per_million = monthly / (w.average_output_tokens_s * SECONDS_PER_MONTH) * 1e6
    usable = (best > 0) & capacity_ok
    ranked = np.where(usable, per_million, np.inf)
    chosen = np.argmin(ranked, axis=1)  # ties: the smaller TP degree
    ok = np.isfinite(np.take_along_axis(ranked, chosen[:, None], axis=1)[:, 0])
    rows = np.arange(len(chosen))

    def pick(values: np.ndarray) -> np.ndarray:
        return np.where(ok, values[rows, chosen], np.nan)

    billed_chosen = pick(billed)
    return Fleet(
        tp_index=np.where(ok, chosen, -1),
        batch_index=np.where(ok, best_batch[rows, chosen], -1),
        replica_tokens_per_s=pick(best),
        replicas=pick(replicas),
        gpus_needed=pick(gpus),
        gpus_billed=billed_chosen,
        servable=ok,
        fewest_gpus_billed=np.min(np.where(best > 0, billed, np.inf), axis=1),
        monthly_cost=pick(monthly),
        cost_per_million_tokens=pick(per_million),
        fabric_cost_per_month=billed_chosen * HOURS_PER_MONTH * b.fabric_price_per_gpu_hour,
    )
