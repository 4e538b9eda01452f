"""Model-parallel communication per step: tensor-parallel all-reduces, pipeline point-to-point
transfers, ZeRO-3/FSDP parameter all-gathers and expert-parallel all-to-alls.

All sizes are per GPU and per optimizer step; activations travel in 16 bits (2 bytes) whatever
the matmul precision. Each term needs the architecture (layers, hidden size) except the
parameter all-gather; without it the term is 0 and the assumptions say so.
"""

from __future__ import annotations

import numpy as np

from clusterbid.core.costmodel.real_arrays import floats
from clusterbid.core.costmodel.serving_replica import NVLINK_ALLREDUCE_LATENCY_S

ACTIVATION_BYTES = 2.0
PARAMETER_BYTES = 2.0  # bf16 weights gathered by ZeRO-3 / FSDP


def tensor_parallel_seconds(w, nvlink_busbw_gb_s, micro_batches):
    """Megatron-LM's tensor parallelism (Shoeybi et al. 2019; with sequence parallelism,
    Korthikanti et al. 2022) exchanges a micro-batch's activations, b x s/cp x h x 2 bytes,
    twice per layer forward (after attention and after the MLP) and twice backward, as
    all-reduces or the equal-volume all-gather + reduce-scatter pairs; full recomputation
    repeats the forward two. Each costs 2(t-1)/t x size / NVLink ring busbw plus 20 us of launch
    (serving.NVLINK_ALLREDUCE_LATENCY_S). TP stays inside the NVLink domain (a gate)."""
    if w.tp == 1 or w.num_layers is None:
        return np.zeros_like(floats(micro_batches))
    size = w.micro_batch_size * w.sequence_length / w.cp * w.hidden_size * ACTIVATION_BYTES
    per_call = (
        2.0 * (w.tp - 1.0) / w.tp * size / (np.asarray(nvlink_busbw_gb_s) * 1e9)
        + NVLINK_ALLREDUCE_LATENCY_S
    )
    calls = micro_batches * w.num_layers / w.pp * (6.0 if w.recomputation == "full" else 4.0)
    return calls * per_call


def pipeline_p2p_seconds(w, b, n_gpus, micro_batches):
    """Each stage sends a micro-batch's activations forward and receives its gradient back, once
    per virtual stage: 2 v m transfers per step on the critical path (not overlapped). Megatron
    splits each transfer across the TP ranks (scatter/gather, Narayanan et al. 2021), so a GPU
    moves b x s/cp x h x 2 / t bytes. Data parallelism is placed before the pipeline in rank
    order, so once the job outgrows one NVLink domain adjacent stages sit in different domains
    and each GPU sends over its share of the node's NICs (spec rate, no SHARP credit), paying
    the fabric's step latency."""
    if w.pp == 1 or w.num_layers is None:
        return np.zeros_like(floats(micro_batches))
    size = w.micro_batch_size * w.sequence_length / w.cp * w.hidden_size * ACTIVATION_BYTES / w.tp
    crosses = floats(n_gpus) > b.nvlink_domain_gpus
    bandwidth = np.where(crosses, b.nic_gb_s_per_gpu, b.nvlink_busbw_gb_s) * 1e9
    latency = np.where(crosses, b.step_latency_s, 0.0)
    return 2.0 * w.virtual_stages * micro_batches * (size / bandwidth + latency)


def parameter_gather_seconds(w, data_parallel, dp_busbw_gb_s, step_latency_s, micro_batches):
    """ZeRO-3 / FSDP FULL_SHARD (Rajbhandari et al. 2020): every micro-batch all-gathers the
    rank's model-parallel shard of the weights for its forward and again for its backward,
    2 m x (d-1)/d x P/(tp pp) x 2 bytes at the data-parallel busbw (ring latency (d-1) steps
    each). The gradient reduce-scatter is half an all-reduce and is counted there."""
    if not w.shard_parameters:
        return np.zeros_like(floats(micro_batches))
    d = np.maximum(floats(data_parallel), 1.0)
    size = w.total_params / (w.tp * w.pp) * PARAMETER_BYTES
    per_gather = (d - 1.0) / d * size / (np.asarray(dp_busbw_gb_s) * 1e9) + (
        d - 1.0
    ) * step_latency_s
    return np.where(d > 1, 2.0 * micro_batches * per_gather, 0.0)


def expert_all_to_all_seconds(w, b, micro_batches):
    """Mixture-of-experts layers (GShard, Lepikhin et al. 2020; Megatron-Core MoE) dispatch each
    token to its top-k experts and combine the results: 2 all-to-alls forward and 2 backward per
    MoE layer (every layer, as in Mixtral), 3 forward-equivalents more with full recomputation.
    A GPU holds b x s/(cp tp) tokens (sequence parallelism) and sends (ep-1)/ep of their top-k
    copies, h x 2 bytes each. An expert-parallel group spans ep x tp x cp GPUs: inside one
    NVLink domain it runs at the NVLink ring busbw, beyond it at the GPU's share of the NICs
    with the fabric's latency per call. Not overlapped with compute."""
    if w.expert_parallel == 1 or w.num_layers is None:
        return np.zeros_like(floats(micro_batches))
    ep = float(w.expert_parallel)
    tokens = w.micro_batch_size * w.sequence_length / (w.cp * w.tp)
    size = tokens * w.hidden_size * ACTIVATION_BYTES * w.experts_per_token * (ep - 1.0) / ep
    crosses = ep * w.tp * w.cp > b.nvlink_domain_gpus
    bandwidth = np.where(crosses, b.nic_gb_s_per_gpu, b.nvlink_busbw_gb_s) * 1e9
    latency = np.where(crosses, b.step_latency_s, NVLINK_ALLREDUCE_LATENCY_S)
    calls = micro_batches * w.num_layers / w.pp * (6.0 if w.recomputation == "full" else 4.0)
    return calls * (size / bandwidth + latency)
