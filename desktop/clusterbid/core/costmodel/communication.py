"""Collective communication times, in the conventions nccl-tests uses for bus bandwidth."""

from __future__ import annotations

import numpy as np

from clusterbid.core.costmodel.real_arrays import floats

# A ring all-reduce on one NVLink domain reaches about 80% of the per-direction NVLink
# bandwidth: nccl-tests all_reduce on one HGX H100 (900 GB/s both ways, 450 one way)
# reports about 360 GB/s busbw with the Ring algorithm.
NVLINK_RING_EFFICIENCY = 0.8

# The backward pass is about two thirds of a step's compute (backward ~ 2x forward), and
# data-parallel gradient reduction can only hide behind it.
BACKWARD_SHARE_OF_COMPUTE = 2.0 / 3.0


def overlap_window_share(micro_batches):
    """Share of a step's compute that data-parallel reduction can hide behind.

    With gradient accumulation the gradients are final only in the last micro-batch's
    backward pass: PyTorch DDP skips the reduction under no_sync() for the others, and
    Megatron-LM's overlap_grad_reduce launches its buckets during the last backward. So the
    window is the backward of one micro-batch out of the m each pipeline runs per step.
    """
    return BACKWARD_SHARE_OF_COMPUTE / np.maximum(floats(micro_batches), 1.0)


def ring_allreduce_seconds(message_bytes, ranks, busbw_gb_s, step_latency_s=0.0):
    """Time of a ring all-reduce of `message_bytes` per rank over `ranks` ranks.

    nccl-tests defines busbw so that time = 2(n-1)/n * S / busbw (GB = 1e9 bytes); a ring
    also pays one latency per step, 2(n-1) steps, which is what slows very large rings.
    """
    ranks = floats(ranks, like=busbw_gb_s)
    factor = 2.0 * (ranks - 1.0) / np.maximum(ranks, 1.0)
    bandwidth_time = (
        factor * floats(message_bytes, like=busbw_gb_s) / (np.asarray(busbw_gb_s) * 1e9)
    )
    latency_time = 2.0 * np.maximum(ranks - 1.0, 0.0) * step_latency_s
    return np.where(ranks > 1, bandwidth_time + latency_time, 0.0)


def nvlink_busbw_gb_s(nvlink_bandwidth_gb_s):
    """Ring busbw inside one NVLink domain from the per-GPU bidirectional NVLink figure."""
    return np.asarray(nvlink_bandwidth_gb_s, dtype=float) / 2.0 * NVLINK_RING_EFFICIENCY


def dp_busbw_per_rank_gb_s(
    n_gpus,
    *,
    data_parallel,
    node_busbw_gb_s,
    nvlink_busbw,
    nvlink_domain_gpus,
    gpus_per_node,
    model_parallel_per_node,
    leaf_domain_gpus,
    oversubscription_ratio,
    busbw_spans_leaves=False,
):
    """Ring-equivalent bus bandwidth one rank of a data-parallel group sees, GB/s.

    A job inside one NVLink domain reduces over NVLink. Otherwise the node's scale-out NICs
    (node_busbw, the figure an all-rank nccl-tests run reports) are shared by the
    data-parallel groups that run at once on the node: one per tensor/context-parallel rank
    on it (8 with TP=8, 1 with TP=1). A scale-up domain larger than a node (GB200 NVL72) is
    credited separately from the node. NVLink caps the intra-domain part of the hierarchy.

    Beyond one non-blocking leaf domain, only the traffic that crosses the spine pays the
    oversubscription (Meta's RoCE paper, SIGCOMM 2024; Wang et al., rail-only networks, 2023):
    ranks are placed leaf by leaf, so a hierarchical all-reduce reduce-scatters inside each
    leaf at full rate, all-reduces the 1/d_leaf shard across the g leaves at rate / ratio,
    then all-gathers inside the leaf. A measured busbw from a run that already crossed leaves
    (busbw_spans_leaves) includes the spine and is not divided again.
    """
    n_gpus = floats(n_gpus, like=node_busbw_gb_s)
    dp = np.maximum(floats(data_parallel, like=node_busbw_gb_s), 1.0)
    # Ranks of one data-parallel group inside one NVLink domain (data parallelism is placed
    # before pipeline stages, so TP x CP ranks apart). The group reduces among them over NVLink
    # and each drives its own GPU's share of the scale-out NICs for the part that leaves the
    # domain: on an 8-GPU HGX node that is node busbw / (TP x CP), on a 72-GPU NVL72 domain with
    # TP 8 it is nine GPUs' worth. A group wholly inside one domain never leaves it.
    in_domain = np.maximum(
        nvlink_domain_gpus / floats(model_parallel_per_node, like=node_busbw_gb_s), 1.0
    )
    fabric = np.minimum(node_busbw_gb_s / gpus_per_node * in_domain, nvlink_busbw)
    # The leaves one data-parallel group spans: a replica larger than a leaf puts each rank
    # of the group in its own leaf.
    leaves = np.minimum(np.ceil(n_gpus / leaf_domain_gpus), dp)
    ratio = np.where(np.asarray(busbw_spans_leaves) | (leaves <= 1), 1.0, oversubscription_ratio)
    per_leaf = np.maximum(dp / leaves, 1.0)
    # Time of each phase in units of S / fabric; the ring-equivalent busbw gives the same time
    # through 2(d-1)/d * S / busbw. With ratio 1 the phases add up to exactly 2(d-1)/d.
    inside = 2.0 * (per_leaf - 1.0) / per_leaf
    across = 2.0 * (leaves - 1.0) / leaves / per_leaf * ratio
    ring = 2.0 * (dp - 1.0) / dp
    hierarchical = np.where(inside + across > 0, ring / np.maximum(inside + across, 1e-12), 1.0)
    fabric = np.where(leaves > 1, fabric * hierarchical, fabric)
    return np.where((n_gpus <= nvlink_domain_gpus) | (in_domain >= dp), nvlink_busbw, fabric)
