"""One replica of a served model: decode and prefill time at each tensor-parallel degree and batch
size, and whether it fits in HBM and on the offer.

Arrays run over (bids, tensor-parallel degrees, batch sizes); every formula is in
resources/methodology.md, section "Serving". The fleet and its bill are serving.py's.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from clusterbid.core.costmodel.serving_inputs import ServingArrays, ServingScalars

# Continuous-batching engines rarely run more sequences per replica than this; the batch
# search stops here.
MAX_BATCH = 1024
# Activations travel in 16-bit even when weights are FP8.
ACTIVATION_BYTES = 2.0
# One small-message all-reduce inside an 8-GPU NVLink domain costs tens of microseconds of
# launch and synchronisation (nccl-tests all_reduce_perf at 8 bytes to 64 KiB on HGX H100:
# roughly 15-30 us); 20 us per call, 160 calls per pass for an 80-layer model = 3.2 ms.
NVLINK_ALLREDUCE_LATENCY_S = 20e-6
# The batch's KV cache must rarely overflow HBM (that preempts and recomputes sequences):
# sized at the 99th percentile of its total, z = 2.326.
KV_OVERFLOW_Z = 2.326
BATCHES = np.arange(1, MAX_BATCH + 1, dtype=float)


def _per_bid(values: np.ndarray) -> np.ndarray:
    return np.asarray(values, dtype=float)[:, None, None]


def _tp_parts_s(
    w: ServingScalars, b: ServingArrays, tp: np.ndarray, tokens: np.ndarray | float
) -> tuple[np.ndarray, np.ndarray]:
    """(all, scale-out fabric part of) the time one forward pass of `tokens` tokens spends in
    tensor-parallel all-reduces: two per layer, each of tokens x hidden x 2 bytes (activations
    stay 16-bit under FP8 weights).

    Inside the NVLink domain of g GPUs: a fixed launch-and-sync latency plus the ring's
    2 (g-1)/g x message / NVLink bus bandwidth. A replica wider than the domain spans s
    segments and adds, per all-reduce, 2 (s-1) fabric steps and each GPU's 2 (s-1)/s share of
    its 1/g slice of the message over its share of the node's NICs (hierarchical all-reduce).
    """
    # Both parts are a fixed latency plus a cost per token: work them out per (bid, TP) and
    # spread over the batch axis once (the grid is bids x TP x 1,024 batches).
    domain = _per_bid(b.fast_domain_gpus)
    inside = np.minimum(tp, domain)
    segments = np.ceil(tp / domain)
    token_bytes = w.hidden_size * ACTIVATION_BYTES
    nvlink_fixed = np.where(tp > 1, NVLINK_ALLREDUCE_LATENCY_S, 0.0)
    nvlink_per_token = (
        2.0 * (inside - 1.0) / inside * token_bytes / _per_bid(b.nvlink_busbw_bytes_s)
    )
    fabric_fixed = 2.0 * (segments - 1.0) * _per_bid(b.fabric_step_latency_s)
    fabric_per_token = (
        2.0
        * (segments - 1.0)
        / segments
        * (token_bytes / inside)
        / _per_bid(b.fabric_busbw_per_gpu_bytes_s)
    )
    calls = 2.0 * w.num_layers
    fabric = calls * (fabric_fixed + fabric_per_token * tokens)
    return calls * (
        nvlink_fixed + fabric_fixed + (nvlink_per_token + fabric_per_token) * tokens
    ), fabric


def tp_communication_s(
    w: ServingScalars, b: ServingArrays, tp: np.ndarray, tokens: np.ndarray | float
) -> np.ndarray:
    """All tensor-parallel all-reduce time of one forward pass of `tokens` tokens."""
    return _tp_parts_s(w, b, tp, tokens)[0]


def kv_tokens_held(w: ServingScalars, batch: np.ndarray) -> np.ndarray:
    """KV-cache tokens a batch holds with the 99th-percentile margin: B sequences caught at
    uniform progress hold B x (prompt + output/2) on average, and with context lengths spread
    at `context_cv` their sum varies by sqrt(B) x cv x that mean (central limit)."""
    mean = w.mean_decode_context
    return np.asarray(
        batch * mean + KV_OVERFLOW_Z * np.sqrt(batch) * w.context_cv * mean, dtype=float
    )


@dataclass(frozen=True, slots=True)
class DecodeStep:
    """One forward pass of a batch in decode, by what it waits on (arrays broadcast like tp x
    batch x bids)."""

    weights_read_s: np.ndarray  # the weight shard read once; the matmuls' compute can hide it
    kv_read_s: np.ndarray  # the batch's KV cache, read by attention after the matmuls
    compute_s: np.ndarray  # the decode tokens and the prompts riding with them (chunked prefill)
    comm_s: np.ndarray  # tensor-parallel all-reduces
    fabric_comm_s: np.ndarray  # their part on the scale-out fabric (nil inside NVLink)

    @property
    def engine_s(self) -> np.ndarray:
        """The part the engine's kernels set (all but the all-reduces): what serving evidence
        scales."""
        return np.asarray(np.maximum(self.weights_read_s, self.compute_s) + self.kv_read_s)

    @property
    def step_s(self) -> np.ndarray:
        return np.asarray(self.engine_s + self.comm_s)


def decode_step(
    w: ServingScalars,
    b: ServingArrays,
    tp: np.ndarray,
    batch: np.ndarray,
    comm: ReplicaComm | None = None,
) -> DecodeStep:
    """At batch B, B/output requests finish (and arrive) per step, so with chunked prefill a
    step carries B decode tokens and B x prompt/output prefill tokens. The matmuls read the
    weights while they compute, so one hides the other; attention is a kernel of its own that
    reads the KV cache after them, so its time adds (paged-attention decode kernels are
    bandwidth-bound)."""
    kv_shards = np.minimum(tp, w.kv_heads)  # GQA: ranks beyond the KV heads hold copies
    bandwidth = _per_bid(b.hbm_bandwidth_bytes_s) * _per_bid(b.hbm_efficiency)
    step_tokens = batch * (1.0 + w.prompt_tokens / w.output_tokens)
    all_reduce, fabric = (
        _tp_parts_s(w, b, tp, step_tokens) if comm is None else (comm.step_s, comm.step_fabric_s)
    )
    return DecodeStep(
        weights_read_s=w.weight_bytes / tp / bandwidth,
        kv_read_s=batch * w.kv_bytes_per_token * w.mean_decode_context / kv_shards / bandwidth,
        compute_s=2.0
        * w.active_params
        * step_tokens
        / (tp * _per_bid(b.peak_flops) * _per_bid(b.compute_efficiency)),
        comm_s=all_reduce,
        fabric_comm_s=fabric,
    )


@dataclass(frozen=True, slots=True)
class ReplicaGrid:
    """One replica (TP GPUs) at each batch size, shape (bids, TP degrees, batches)."""

    tp: np.ndarray  # (1, T, 1)
    batch: np.ndarray  # (1, 1, B)
    weights_per_gpu_bytes: np.ndarray  # (1, T, 1)
    kv_per_sequence_per_gpu_bytes: np.ndarray  # one full-length sequence, (1, T, 1)
    usable_hbm_bytes: np.ndarray  # (bids, 1, 1)
    fits_hbm: np.ndarray
    placeable: (
        np.ndarray
    )  # the replica fits the offer (GPUs, and one fabric block when it spans nodes)
    kv_read_s: np.ndarray  # the batch's KV cache read once
    weights_read_s: np.ndarray  # the weights read once, which the matmuls' compute can hide
    compute_s: np.ndarray
    comm_s: np.ndarray  # all-reduce time of one step
    fabric_comm_s: np.ndarray  # its part on the scale-out fabric (nil inside NVLink)
    step_s: np.ndarray  # one decode step of the whole batch
    prefill_s: np.ndarray  # one request's prompt
    tpot_s: np.ndarray  # time per output token, prefills of arriving requests included
    ttft_s: np.ndarray
    tokens_per_s: np.ndarray  # output tokens per second of the replica
    feasible: np.ndarray

    @property
    def memory_s(self) -> np.ndarray:
        """Weights and the batch's KV cache read once (worked out when asked: the Monte Carlo never does)."""
        return np.asarray(self.weights_read_s + self.kv_read_s)


@dataclass(frozen=True, slots=True)
class ReplicaComm:
    """The all-reduce times of a grid, which no efficiency moves: worked out once per bid and
    repeated over the Monte Carlo's draws (issue 37) instead of once per draw."""

    step_s: np.ndarray  # one decode step's all-reduces, (rows, TP, batches)
    step_fabric_s: np.ndarray  # their part on the scale-out fabric
    prefill_s: np.ndarray  # one prompt's all-reduces, (rows, TP, 1)

    def repeat(self, draws: int) -> ReplicaComm:
        """Each row repeated `draws` times: rows become (bid, draw) pairs, bid-major."""
        return ReplicaComm(
            *(
                np.repeat(part, draws, axis=0)
                for part in (self.step_s, self.step_fabric_s, self.prefill_s)
            )
        )


def replica_comm(w: ServingScalars, b: ServingArrays, batches: np.ndarray = BATCHES) -> ReplicaComm:
    """The all-reduce times replica_grid would work out for these bids, degrees and batches."""
    tp = np.asarray(w.tp_choices, dtype=float)[None, :, None]
    batch = np.asarray(batches, dtype=float)[None, None, :]
    step, fabric = _tp_parts_s(w, b, tp, batch * (1.0 + w.prompt_tokens / w.output_tokens))
    return ReplicaComm(step, fabric, tp_communication_s(w, b, tp, w.prompt_tokens))


def replica_grid(
    w: ServingScalars,
    b: ServingArrays,
    batches: np.ndarray = BATCHES,
    comm: ReplicaComm | None = None,
) -> ReplicaGrid:
    """Every (TP, batch) a bid could run a replica at, with its latency and throughput.

    A step's time is max(weight shard / (HBM bandwidth x efficiency), 2 x active params x
    tokens / (TP x peak x compute efficiency)) + the batch's KV cache / (HBM bandwidth x
    efficiency) + TP all-reduce time for those tokens (decode_step). Time per output token is
    that step. A request's own first token needs its whole prompt computed plus one step.
    `comm`: the all-reduce times of these rows, when worked out already (replica_comm).
    """
    tp = np.asarray(w.tp_choices, dtype=float)[None, :, None]
    batch = np.asarray(batches, dtype=float)[
        None, None, :
    ]  # the Monte Carlo searches fewer (issue 37)
    kv_shards = np.minimum(tp, w.kv_heads)  # GQA: ranks beyond the KV heads hold copies
    weights = w.weight_bytes / tp
    kv_full = w.kv_bytes_per_token * w.context_tokens / kv_shards
    usable = _per_bid(b.hbm_bytes) * w.usable_hbm_fraction
    kv_batch = w.kv_bytes_per_token * kv_tokens_held(w, batch) / kv_shards
    fits = (weights + kv_full <= usable) & (weights + kv_batch <= usable)
    spans_nodes = tp > _per_bid(b.gpus_per_node)
    placeable = (tp <= _per_bid(b.gpus_offered)) & (
        ~spans_nodes | (tp <= _per_bid(b.contiguous_block_gpus))
    )
    step = decode_step(w, b, tp, batch, comm)
    peak = _per_bid(b.peak_flops) * _per_bid(b.compute_efficiency)
    prefill = 2.0 * w.active_params * w.prompt_tokens / (tp * peak) + (
        tp_communication_s(w, b, tp, w.prompt_tokens) if comm is None else comm.prefill_s
    )
    tpot = step.step_s
    ttft = prefill + tpot
    with np.errstate(invalid="ignore"):
        feasible = fits & placeable & (tpot <= w.tpot_target_s) & (ttft <= w.ttft_target_s)
    return ReplicaGrid(
        tp=tp,
        batch=batch,
        weights_per_gpu_bytes=weights,
        kv_per_sequence_per_gpu_bytes=kv_full,
        usable_hbm_bytes=usable,
        fits_hbm=fits,
        placeable=placeable,
        kv_read_s=step.kv_read_s,
        weights_read_s=np.broadcast_to(step.weights_read_s, tpot.shape),
        compute_s=step.compute_s,
        comm_s=step.comm_s,
        fabric_comm_s=step.fabric_comm_s,
        step_s=tpot,
        prefill_s=prefill,
        tpot_s=tpot,
        ttft_s=ttft,
        tokens_per_s=batch / tpot,
        feasible=feasible,
    )
