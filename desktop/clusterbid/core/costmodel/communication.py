"""Collective communication times, in the conventions nccl-tests uses for bus bandwidth."""

from __future__ import annotations

import numpy as np

# A ring all-reduce on one NVLink domain reaches about 80% of the per-direction NVLink
# bandwidth: nccl-tests all_reduce on one HGX H100 (900 GB/s both ways, 450 one way)
# reports about 360 GB/s busbw with the Ring algorithm.
NVLINK_RING_EFFICIENCY = 0.8

# The backward pass is about two thirds of a step's compute (backward ~ 2x forward), and
# data-parallel gradient reduction can only hide behind it.
BACKWARD_SHARE_OF_COMPUTE = 2.0 / 3.0


def ring_allreduce_seconds(message_bytes, ranks, busbw_gb_s, step_latency_s=0.0):
    """Time of a ring all-reduce of `message_bytes` per rank over `ranks` ranks.

    nccl-tests defines busbw so that time = 2(n-1)/n * S / busbw (GB = 1e9 bytes); a ring
    also pays one latency per step, 2(n-1) steps, which is what slows very large rings.
    """
    ranks = np.asarray(ranks, dtype=float)
    factor = 2.0 * (ranks - 1.0) / np.maximum(ranks, 1.0)
    bandwidth_time = factor * np.asarray(message_bytes, dtype=float) / (np.asarray(busbw_gb_s) * 1e9)
    latency_time = 2.0 * np.maximum(ranks - 1.0, 0.0) * step_latency_s
    return np.where(ranks > 1, bandwidth_time + latency_time, 0.0)


def nvlink_busbw_gb_s(nvlink_bandwidth_gb_s):
    """Ring busbw inside one NVLink domain from the per-GPU bidirectional NVLink figure."""
    return np.asarray(nvlink_bandwidth_gb_s, dtype=float) / 2.0 * NVLINK_RING_EFFICIENCY


def dp_busbw_per_rank_gb_s(
    n_gpus,
    *,
    node_busbw_gb_s,
    nvlink_busbw,
    nvlink_domain_gpus,
    gpus_per_node,
    model_parallel_per_node,
    leaf_domain_gpus,
    oversubscription_ratio,
):
    """Bus bandwidth one rank of a data-parallel group sees, GB/s.

    A job inside one NVLink domain reduces over NVLink. Otherwise the node's scale-out NICs
    (node_busbw, the figure an all-rank nccl-tests run reports) are shared by the
    data-parallel groups that run at once on the node: one per tensor/context-parallel rank
    on it (8 with TP=8, 1 with TP=1). Beyond one non-blocking leaf domain the uplinks are
    oversubscribed. NVLink caps the intra-node part of the hierarchical ring.
    """
    n_gpus = np.asarray(n_gpus, dtype=float)
    sharing = np.minimum(gpus_per_node, model_parallel_per_node)
    fabric = node_busbw_gb_s / sharing
    fabric = np.where(n_gpus > leaf_domain_gpus, fabric / oversubscription_ratio, fabric)
    fabric = np.minimum(fabric, nvlink_busbw)
    return np.where(n_gpus <= nvlink_domain_gpus, nvlink_busbw, fabric)
