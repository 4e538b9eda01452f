"""Step time, effective MFU, goodput, and the time and cost to finish a training run."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from clusterbid.core.costmodel.communication import (
    dp_busbw_per_rank_gb_s,
    overlap_window_share,
    ring_allreduce_seconds,
)
from clusterbid.core.costmodel.contract import ContractBill, bill, where
from clusterbid.core.costmodel.failure_model import (
    checkpoint_read_hours,
    job_failures_per_hour,
    sla_factor,
)
from clusterbid.core.costmodel.inputs import BidArrays, WorkloadScalars
from clusterbid.core.costmodel.parallel_comm import (
    expert_all_to_all_seconds,
    parameter_gather_seconds,
    pipeline_p2p_seconds,
    tensor_parallel_seconds,
)
from clusterbid.core.costmodel.real_arrays import floats


@dataclass(frozen=True, slots=True)
class StepBreakdown:
    """One optimizer step at a given GPU count, per bid (arrays broadcast like the inputs)."""

    n_gpus: np.ndarray
    data_parallel: np.ndarray
    micro_batches: np.ndarray
    compute_s: np.ndarray  # ideal compute at the baseline MFU
    bubble_fraction: np.ndarray
    dp_busbw_gb_s: np.ndarray
    dp_comm_s: np.ndarray  # gradient all-reduce (reduce-scatter with sharded parameters)
    exposed_comm_s: np.ndarray  # every exposed communication term below and the gradients'
    tp_comm_s: np.ndarray  # tensor-parallel all-reduces, before overlap
    pp_comm_s: np.ndarray  # pipeline point-to-point transfers (exposed)
    gather_comm_s: np.ndarray  # ZeRO-3/FSDP parameter all-gathers, before overlap
    moe_comm_s: np.ndarray  # expert-parallel all-to-alls (exposed)
    step_s: np.ndarray
    effective_mfu: np.ndarray


def pipeline_bubble(pp, virtual_stages, micro_batches):
    """(pp-1)/(v*m+pp-1): the idle share of a 1F1B (interleaved) pipeline schedule."""
    return (pp - 1.0) / (virtual_stages * micro_batches + pp - 1.0)


def step_breakdown(w: WorkloadScalars, b: BidArrays, n_gpus) -> StepBreakdown:
    """Time one step of the workload on `n_gpus` of each bid, global batch held fixed."""
    n = floats(n_gpus, like=b.peak_flops)
    dp = n / (w.tp * w.pp * w.cp)
    micro_batches = w.global_batch_sequences / (dp * w.micro_batch_size)
    compute = w.model_flops_per_token * w.batch_tokens / (n * b.peak_flops * b.baseline_mfu)
    bubble = pipeline_bubble(w.pp, w.virtual_stages, micro_batches)
    pipelined = compute / (1.0 - bubble)
    busbw = dp_busbw_per_rank_gb_s(
        n,
        data_parallel=dp,
        node_busbw_gb_s=b.node_busbw_gb_s,
        nvlink_busbw=b.nvlink_busbw_gb_s,
        nvlink_domain_gpus=b.nvlink_domain_gpus,
        gpus_per_node=b.gpus_per_node,
        model_parallel_per_node=w.tp * w.cp,
        leaf_domain_gpus=b.leaf_domain_gpus,
        oversubscription_ratio=b.oversubscription_ratio,
        busbw_spans_leaves=b.busbw_spans_leaves,
    )
    comm = ring_allreduce_seconds(w.grad_bytes_per_rank_at_mp, dp, busbw, b.step_latency_s)
    if w.shard_parameters:  # a reduce-scatter: half the all-reduce's bytes and steps
        comm = comm / 2.0
    hidden = np.minimum(w.dp_comm_overlap * comm, overlap_window_share(micro_batches) * compute)
    tp = tensor_parallel_seconds(w, b.nvlink_busbw_gb_s, micro_batches)
    pp = pipeline_p2p_seconds(w, b, n, micro_batches)
    gather = parameter_gather_seconds(w, dp, busbw, b.step_latency_s, micro_batches)
    moe = expert_all_to_all_seconds(w, b, micro_batches)
    # The model-parallel terms do not depend on the Monte Carlo's draws: summed on their own
    # small arrays first, they cost the (samples x bids) arrays one addition.
    exposed = (comm - hidden) + (tp * (1.0 - w.tp_comm_overlap) + pp + moe)
    if w.shard_parameters:
        # FSDP prefetches each layer's weights during the previous layer's compute: the gathers
        # hide behind the whole step's compute, up to the workload's overlap share.
        exposed = exposed + (gather - np.minimum(w.dp_comm_overlap * gather, compute))
    step = pipelined + exposed
    return StepBreakdown(
        n_gpus=n,
        data_parallel=dp,
        micro_batches=micro_batches,
        compute_s=compute,
        bubble_fraction=bubble,
        dp_busbw_gb_s=busbw,
        dp_comm_s=comm,
        exposed_comm_s=exposed,
        tp_comm_s=tp,
        pp_comm_s=pp,
        gather_comm_s=gather,
        moe_comm_s=moe,
        step_s=step,
        effective_mfu=b.baseline_mfu * compute / step,
    )


@dataclass(frozen=True, slots=True)
class Goodput:
    """Share of wall-clock time that advances training, and what takes the rest."""

    failures_per_hour: np.ndarray
    hours_lost_per_failure: np.ndarray
    spare_on_hand: np.ndarray
    restart_hours: np.ndarray  # the workload's restart plus reading the checkpoint back
    wait_hours_per_failure: np.ndarray  # for a node without a spare: repair, or the pool's swap
    checkpoint_write_s: np.ndarray
    checkpoint_interval_s: np.ndarray  # Young/Daly optimum for this bid, capped by the workload's
    checkpoint_factor: np.ndarray
    failure_factor: np.ndarray
    wait_share: np.ndarray  # share of wall-clock time waiting for failed nodes
    uptime: np.ndarray
    sla_factor: np.ndarray  # the SLA's floor beyond the downtime the failure model counted
    goodput: np.ndarray


# Checkpoints are not started more often than once a minute, nor before the last write ended.
MIN_CHECKPOINT_INTERVAL_S = 60.0
# Not every interruption takes a node out: Llama 3 (Dubey et al. 2024, Table 5) attributes 321 of
# its 419 unexpected interruptions to a node's own hardware or host maintenance (GPU, HBM3, SRAM,
# GPU system processor, NIC, silent data corruption, thermal, SSD, power supply, chassis, IO
# board, CPU, system memory, host maintenance); software bugs, NCCL timeouts, network switches
# and cables, and dependencies (98) restart on the same nodes. Only the former wait for a
# replacement node when no spare is on hand.
NODE_SWAP_SHARE = 321 / 419


def checkpoint_interval_s(write_s, failures_per_hour, longest_s):
    """Young's optimum sqrt(2 x write time x MTBF) (Young 1974; Daly 2006 to first order): it
    balances the write stalls against the work lost, half an interval per failure. The
    workload's interval is the longest the buyer accepts between checkpoints."""
    mtbf_s = 3600.0 / np.maximum(failures_per_hour, 1e-12)
    optimum = np.sqrt(2.0 * write_s * mtbf_s)
    return np.clip(optimum, np.maximum(write_s, MIN_CHECKPOINT_INTERVAL_S), longest_s)


def goodput(w: WorkloadScalars, b: BidArrays, n_gpus) -> Goodput:
    """Failures at the job's size (failure_model: restart and checkpoint read, half an interval
    of lost work, and for the share of failures that take a node out the wait for a node when no
    spare is on hand), blocking checkpoint writes at the bid's best interval, and the uptime the
    SLA allows beyond the downtime already counted."""
    n = floats(n_gpus, like=b.peak_flops)
    failures_per_hour = job_failures_per_hour(b.failures_per_gpu_hour, n)
    # A failed node is swapped at once when a spare node is on hand: the hot-spare pool
    # or the offered GPUs the job does not use.
    spare_on_hand = (b.spare_pool_gpus + b.gpus_offered - n) >= b.gpus_per_node
    # Without one, the job continues on a node from the provider's own pool when the bid states
    # how long that swap takes (nan: not stated), else it waits for the repair.
    node_wait = where(np.isnan(b.pool_swap_hours), b.node_replacement_hours, b.pool_swap_hours)
    wait = where(spare_on_hand, 0.0, NODE_SWAP_SHARE * node_wait)
    restart = w.restart_hours + checkpoint_read_hours(w.checkpoint_bytes, b.storage_write_gb_s)
    write_s = w.checkpoint_bytes / (b.storage_write_gb_s * 1e9) * w.checkpoint_blocking_share
    interval_s = checkpoint_interval_s(write_s, failures_per_hour, w.checkpoint_interval_s)
    lost = restart + interval_s / 3600.0 / 2.0 + wait
    checkpoint_factor = interval_s / (interval_s + write_s)
    failure_factor = 1.0 / (1.0 + failures_per_hour * lost)
    sla = sla_factor(b.uptime, failures_per_hour * (restart + wait) * failure_factor)
    return Goodput(
        failures_per_hour=failures_per_hour,
        hours_lost_per_failure=lost,
        spare_on_hand=spare_on_hand,
        restart_hours=restart,
        wait_hours_per_failure=wait,
        checkpoint_write_s=write_s,
        checkpoint_interval_s=interval_s,
        checkpoint_factor=checkpoint_factor,
        failure_factor=failure_factor,
        wait_share=failures_per_hour * wait * failure_factor,
        uptime=b.uptime,
        sla_factor=sla,
        goodput=sla * checkpoint_factor * failure_factor,
    )


@dataclass(frozen=True, slots=True)
class Finish:
    """Time to finish the job on each bid, and what its contract bills for the buyer's plan."""

    run_hours: np.ndarray
    wall_hours: np.ndarray
    contract: ContractBill
    cost: np.ndarray  # the net cost of the buyer's compute plan: what ranks the bids
    effective_price_per_useful_gpu_hour: np.ndarray


def finish(w: WorkloadScalars, b: BidArrays, step: StepBreakdown, good: Goodput) -> Finish:
    """wall = FLOPs / (n x peak x MFU_eff x goodput) + burn-in; the contract bills the rest.

    The effective price is the plan's net cost per GPU-hour the job used, divided by the share
    of each GPU-hour that advanced training (scaling efficiency against the bid's own baseline,
    times goodput): never below the sticker price for the same work."""
    n = step.n_gpus
    run_hours = w.total_flops / (n * b.peak_flops * step.effective_mfu * good.goodput) / 3600.0
    wall_hours = run_hours + b.burn_in_hours
    billed = bill(b, w.idle, n, wall_hours)
    useful_share = np.minimum(step.effective_mfu / b.baseline_mfu, 1.0) * good.goodput
    return Finish(
        run_hours=run_hours,
        wall_hours=wall_hours,
        contract=billed,
        cost=billed.plan_cost,
        effective_price_per_useful_gpu_hour=billed.plan_cost / billed.used_gpu_hours / useful_share,
    )
