"""The assumptions behind each bid's figures, in words a memo can print. The words for where each
figure comes from are in assumption_sources.py; the three a memo page or test reads alone
(busbw_source_words, exposed_by_kind, exposed_text) are re-exported here."""

from __future__ import annotations

from dataclasses import dataclass

from clusterbid.core.assumption_sources import (
    baseline_conversion,
    evidence_source,
    flops_source,
    memory_words,
    parallel_comm_words,
)
from clusterbid.core.assumption_sources import busbw_source_words as busbw_source_words
from clusterbid.core.assumption_sources import exposed_by_kind as exposed_by_kind
from clusterbid.core.assumption_sources import exposed_text as exposed_text
from clusterbid.core.bid import Bid, Reliability
from clusterbid.core.catalog import GpuSpec, default_catalog
from clusterbid.core.contract_summary import billing_words, plan_words
from clusterbid.core.costmodel.estimate import BidEstimate
from clusterbid.core.costmodel.schedule_range import schedule_words
from clusterbid.core.costmodel.stack_efficiency import fp8_gain, stack_assumption
from clusterbid.core.costmodel.stack_efficiency import mfu_factor as stack_mfu_factor
from clusterbid.core.flops import flops_text
from clusterbid.core.money import format_money
from clusterbid.core.provenance import effective_reliability
from clusterbid.core.workload import Workload


@dataclass(frozen=True, slots=True)
class Assumption:
    name: str
    value: str
    source: str


def bid_assumptions(
    estimate: BidEstimate, workload: Workload, currency: str = "USD"
) -> list[Assumption]:
    """Every input the estimate used that the officer may want to challenge."""
    return [
        *_compute_assumptions(estimate, workload),
        *_network_assumptions(estimate, workload),
        *_reliability_assumptions(estimate, workload, currency),
    ]


def _compute_assumptions(estimate: BidEstimate, workload: Workload) -> list[Assumption]:
    """The job's size, compute, parallelism and memory, and the GPU's peak and efficiency."""
    gpu = default_catalog().gpu(estimate.bid.capacity.gpu_model)
    mfu_source = (
        evidence_source(estimate.efficiency_evidence)
        if estimate.efficiency_evidence
        else f"the workload's baseline MFU (the buyer's figure inside one NVLink domain, BF16 on H100) x"
        f" {stack_mfu_factor(workload.software_stack, gpu, workload.precision):.3f} for {gpu.id}"
        f" at {workload.precision} ({gpu.efficiency_source})"
        + _fp8_gain_words(workload, gpu)
        + baseline_conversion(workload)
    )
    return [
        Assumption("Planned job size", f"{workload.job_gpus:,} GPUs", "workload"),
        Assumption(
            "Total training compute",
            flops_text(workload.total_training_flops),
            flops_source(workload),
        ),
        Assumption(
            "Parallelism",
            f"TP {workload.tensor_parallel} x PP {workload.pipeline_parallel} x CP "
            f"{workload.context_parallel} "
            f"x DP {workload.data_parallel}",
            "workload",
        ),
        Assumption("Memory per GPU", *memory_words(workload)),
        Assumption(
            f"Dense {workload.precision.upper()} peak",
            f"{estimate.peak_tflops:,.0f} TFLOP/s per GPU",
            gpu.source,
        ),
        Assumption("Baseline MFU", f"{estimate.baseline_mfu:.1%}", mfu_source),
        Assumption("Software stack", *stack_assumption(workload)),
    ]


def _network_assumptions(estimate: BidEstimate, workload: Workload) -> list[Assumption]:
    """The all-reduce speed, latency and exposed communication per step, and the pipeline."""
    bid = estimate.bid
    fabric = default_catalog().fabric(bid.fabric.technology)
    sharing = min(bid.capacity.gpus_per_node, workload.tensor_parallel * workload.context_parallel)
    busbw_source = busbw_source_words(estimate)
    over = bid.topology.oversubscription_ratio
    dp_note = f"node busbw shared by {sharing} concurrent data-parallel groups (TP x CP on a node)"
    if workload.job_gpus > bid.topology.leaf_domain_gpus and over > 1:
        dp_note += (
            f"; hierarchical all-reduce: only the cross-leaf phase pays the {over:g}:1 "
            "oversubscription"
            f" beyond the {bid.topology.leaf_domain_gpus:,}-GPU leaf"
        )
    if workload.job_gpus <= bid.topology.nvlink_domain_gpus:
        dp_note = "the whole job sits in one NVLink domain"
    return [
        Assumption(
            "Scale-out busbw per node", f"{estimate.node_busbw_gb_s:.1f} GB/s", busbw_source
        ),
        Assumption("Data-parallel busbw per rank", f"{estimate.dp_busbw_gb_s:.2f} GB/s", dp_note),
        Assumption("Ring step latency", f"{estimate.step_latency_us:g} us", fabric.source),
        Assumption(
            "Data-parallel all-reduce per step",
            f"{estimate.dp_comm_s:.3f} s, "
            f"{exposed_by_kind(estimate, workload)['data-parallel']:.3f} s exposed",
            f"hierarchical ring all-reduce, at most {workload.dp_comm_overlap:.0%} hidden, and "
            "only behind the"
            " last micro-batch's backward",
        ),
        Assumption(
            "Model-parallel communication per step", *parallel_comm_words(estimate, workload)
        ),
        Assumption(
            "Exposed communication per step",
            exposed_text(estimate, workload),
            "each kind less the share its overlap hides, as the step time counts it (methodology "
            "section 2)",
        ),
        Assumption(
            "Pipeline bubble", f"{estimate.bubble_fraction:.2%}", "(pp-1)/(v*m+pp-1), 1F1B schedule"
        ),
        *[
            Assumption("Pipeline schedule", *words)
            for words in [
                schedule_words(workload, bid, (estimate.interleave, estimate.micro_batch))
            ]
            if words
        ],
    ]


def _reliability_assumptions(
    estimate: BidEstimate, workload: Workload, currency: str
) -> list[Assumption]:
    """Failures, waits, checkpoints and uptime (stated or defaulted), then the billing and plan."""
    bid = estimate.bid
    reliability = effective_reliability(bid)  # not-stated figures: their documented defaults
    said = {path.split(".")[1]: source.label for path, source in bid.provenance.items()}
    return [
        Assumption(
            "Failures",
            f"{estimate.failures_per_hour:.3f} per job-hour, {estimate.hours_lost_per_failure:.2f} "
            "h lost each",
            f"{reliability.failures_per_1000_gpu_days:g} per 1,000 GPU-days across the fleet "
            f"({said['failures_per_1000_gpu_days']}), fewer per GPU beyond 1,024 GPUs as in Meta's "
            "fleets "
            f"(methodology section 3); restart ({estimate.restart_hours * 60:.0f} min with the "
            "checkpoint read back)"
            " + half a checkpoint interval"
            f" ({estimate.checkpoint_interval_s / 60:.1f} min: Young's sqrt(2 x write x MTBF), at "
            "most the workload's)"
            + ("" if estimate.spare_on_hand else _node_wait_words(bid, reliability, said)),
        ),
        *_wait_assumption(estimate, currency),
        Assumption(
            "Checkpoint stall",
            f"{estimate.checkpoint_write_s:.1f} s per checkpoint",
            f"{reliability.storage_write_gb_s:g} GB/s write ({said['storage_write_gb_s']}), 14 "
            "bytes per parameter",
        ),
        Assumption(
            "Uptime",
            f"{reliability.uptime_sla_percent:g}%",
            f"SLA floor, {said['uptime_sla_percent']}; counted only"
            " beyond the downtime restarts and node waits already take (methodology section 3)",
        ),
        Assumption("Billing", billing_words(bid, currency), "the bid's terms"),
        Assumption(
            "Idle reserved time", plan_words(workload.plan, currency), "the buyer's compute plan"
        ),
    ]


def _node_wait_words(bid: Bid, reliability: Reliability, said: dict[str, str]) -> str:
    """What a failed node costs the job when the reservation holds no spare: the provider's pool
    swap when the bid offers one, else the repair."""
    share = "for the 77% of failures that take a node out (Llama 3)"
    swap = bid.reliability.pool_swap_hours
    if swap is not None:
        return (
            f" + {swap:g} h to continue on a node from the provider's pool, "
            f"{said.get('pool_swap_hours', 'as the bid states')} (no spare node in the "
            f"reservation) {share}"
        )
    return (
        f" + {reliability.node_replacement_hours:g} h waiting for the repair, "
        f"{said['node_replacement_hours']}"
        f" (no spare node, and the bid offers no swap from the provider's pool) {share}"
    )


def _wait_assumption(estimate: BidEstimate, currency: str) -> list[Assumption]:
    """The run's hours spent waiting for failed nodes and what that GPU time costs, when any."""
    if estimate.replacement_wait_hours <= 0:
        return []
    return [
        Assumption(
            "Waiting for failed nodes",
            f"{estimate.replacement_wait_hours:,.0f} h of the run, "
            f"{format_money(estimate.replacement_wait_cost, currency)}"
            " of GPU time",
            "no spare node on hand: the job's GPUs wait at the bid's price while a failed node is "
            "swapped or repaired",
        )
    ]


def _fp8_gain_words(workload: Workload, gpu: GpuSpec) -> str:
    """Whose FP8 gain the factor carries, when the job runs in FP8."""
    if workload.precision != "fp8" or gpu.dense_fp8_tflops is None:
        return ""
    gain, whose = fp8_gain(workload.software_stack, gpu)
    return f"; FP8 gain {gain:.2f}x, {whose}"
