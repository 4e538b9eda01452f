"""The assumptions behind each bid's figures, in words a memo can print."""

from __future__ import annotations

from dataclasses import dataclass

from clusterbid.core.bid import Bid, Reliability
from clusterbid.core.catalog import GpuSpec, default_catalog
from clusterbid.core.contract_summary import billing_words, plan_words
from clusterbid.core.costmodel.estimate import BidEstimate
from clusterbid.core.costmodel.inputs import WorkloadScalars
from clusterbid.core.costmodel.schedule_range import schedule_words
from clusterbid.core.costmodel.stack_efficiency import fp8_gain, stack_assumption
from clusterbid.core.costmodel.stack_efficiency import mfu_factor as stack_mfu_factor
from clusterbid.core.evidence.model import (
    KIND_WORDS,
    MEASURED_BY_WORDS,
    Evidence,
    EvidenceGrade,
    grade_words,
)
from clusterbid.core.flops import flops_text
from clusterbid.core.money import format_money
from clusterbid.core.provenance import effective_reliability
from clusterbid.core.workload import Workload


@dataclass(frozen=True, slots=True)
class Assumption:
    name: str
    value: str
    source: str


def _evidence_source(evidence: Evidence) -> str:
    said = "claimed" if evidence.grade is EvidenceGrade.PROVIDER_CLAIM else "measured"  # issue 31
    return (
        f"{said}: {KIND_WORDS[evidence.kind]} at {evidence.scale_gpus:,} GPUs, "
        f"{grade_words(evidence.grade, evidence.measured_by)}, "
        f"by {MEASURED_BY_WORDS.get(evidence.measured_by, evidence.measured_by)}"
        + (
            f" on {evidence.measured_on.isoformat()}"
            if evidence.measured_on
            else ", date not given"
        )
        + (
            f", artefact sha256 {evidence.artefact_sha256[:12]}..."
            if evidence.artefact_sha256
            else ", no artefact attached"
        )
        + (
            f"; the run does not record its {', '.join(evidence.missing_context)}: graded lower "
            "and drawn wider"
            if evidence.missing_context
            else ""
        )
    )


def _flops_source(workload: Workload) -> str:
    basis = "6 x active params x tokens" if workload.total_flops is None else "as given (6ND basis)"
    if workload.num_layers is None:
        return f"{basis}; attention not counted (the workload gives no layers and hidden size)"
    return (
        f"{basis} x {workload.attention_factor:.4f} for attention, 1 + 12 l s h / 6N with "
        f"{workload.num_layers} "
        f"layers, hidden {workload.hidden_size:,}, sequence {workload.sequence_length:,} "
        "(Narayanan et al. 2021)"
    )


def _baseline_conversion(workload: Workload) -> str:
    scalars = WorkloadScalars.from_workload(workload)
    words = ""
    if workload.baseline_flops_basis == "hardware":
        words += (
            f"; stated as HFU, divided by {scalars.hardware_flops_ratio:.4f} for "
            f"{workload.activation_recomputation} recomputation"
        )
    if scalars.width_factor != 1.0:
        words += (
            f"; measured on width {workload.baseline_hidden_size:,}, x {scalars.width_factor:.3f} "
            "for width "
            f"{workload.hidden_size:,} (1 / (1 + 455 / h), llm-foundry A100 table)"
        )
    return words


def _memory_words(workload: Workload) -> tuple[str, str]:
    scalars = WorkloadScalars.from_workload(workload)
    state = scalars.model_state_gb_per_gpu
    if scalars.activation_gb_per_gpu is None:
        return (
            f"{state:.1f} GB model state",
            "weights, gradients, optimizer state; activations not counted (no architecture)",
        )
    return (
        f"{state + scalars.activation_gb_per_gpu:.1f} GB ({state:.1f} model state + "
        f"{scalars.activation_gb_per_gpu:.1f} "
        "activations)",
        f"activations 34 s b h / t per layer ({workload.activation_recomputation} recomputation; "
        "full keeps 2 s b h / t), "
        "first pipeline stage's micro-batches in flight (Korthikanti et al. 2022)",
    )


def exposed_by_kind(e: BidEstimate, workload: Workload) -> dict[str, float]:
    """Seconds per step each kind of communication leaves exposed, as the training model counts
    them: TP less its overlap share, pipeline and expert transfers whole, ZeRO-3 gathers less what
    hides behind the step's compute; data-parallel is what remains of the total (the gradient
    all-reduce less the share hidden behind the last micro-batch's backward). The estimate keeps
    one total; printed under the data-parallel label it read as more than the all-reduce took."""
    gathers = 0.0
    if workload.shard_parameters:
        gathers = e.gather_comm_s - min(workload.dp_comm_overlap * e.gather_comm_s, e.compute_s)
    others = {
        "tensor-parallel": e.tp_comm_s * (1.0 - workload.tp_comm_overlap),
        "pipeline": e.pp_comm_s,
        "expert all-to-all": e.moe_comm_s,
        "ZeRO-3 gathers": gathers,
    }
    return {"data-parallel": max(e.exposed_comm_s - sum(others.values()), 0.0), **others}


def exposed_text(e: BidEstimate, workload: Workload) -> str:
    """'0.412 s in all: data-parallel 0.100 s, tensor-parallel 0.312 s' (the kinds above 0)."""
    kinds = exposed_by_kind(e, workload)
    shown = ", ".join(
        f"{kind} {seconds:.3f} s" for kind, seconds in kinds.items() if seconds >= 0.0005
    )
    return f"{e.exposed_comm_s:.3f} s in all" + (f": {shown}" if shown else "")


def _parallel_comm_words(e: BidEstimate, workload: Workload) -> tuple[str, str]:
    value = (
        f"TP {e.tp_comm_s:.3f} s ({workload.tp_comm_overlap:.0%} hidden), pipeline "
        f"{e.pp_comm_s:.3f} s, "
        f"ZeRO-3 gathers {e.gather_comm_s:.3f} s, expert all-to-all {e.moe_comm_s:.3f} s"
    )
    if workload.num_layers is None:
        return (
            value,
            "not counted except ZeRO-3 gathers: the workload gives no layers and hidden size",
        )
    return value, (
        "4 TP all-reduces per layer and micro-batch over NVLink (6 with full recomputation); 2 "
        "pipeline "
        "transfers per micro-batch and virtual stage; 2 weight all-gathers per micro-batch with "
        "sharded "
        "parameters; 4 all-to-alls per MoE layer and micro-batch (methodology section 2)"
    )


def busbw_source_words(estimate: BidEstimate) -> str:
    """Where the scale-out busbw per node came from: the evidence, or the spec sheet's sum with its
    efficiency and corrections. Its own function so a bid's page can print it without working
    out every other assumption (the memo's bid pages: 500 bids' schedules took seconds)."""
    f = estimate.bid.fabric
    fabric = default_catalog().fabric(f.technology)
    return (
        _evidence_source(estimate.busbw_evidence)
        if estimate.busbw_evidence
        else f"spec: {f.nics_per_node} x {f.nic_line_rate_gbit_s:g} Gb/s x {fabric.typical_efficiency:g} typical "
        f"ring efficiency of {fabric.id} ({fabric.source})"
        + (
            "; x 0.83 without GPUDirect RDMA (NVIDIA/nccl issue 1579)"
            if fabric.rdma and not f.gpudirect_rdma
            else ""
        )
        + (
            "; SHARP: x 2(k-1)/k over the k nodes of a data-parallel group"
            if f.sharp and fabric.id.startswith("IB-")
            else ""
        )
        + (
            "; WARNING: the bid states SHARP, but SHARP reduces in InfiniBand switches and "
            f"{fabric.id} is not "
            "InfiniBand: no credit given, ask the provider what in-network reduction it means"
            if f.sharp and not fabric.id.startswith("IB-")
            else ""
        )
    )


def bid_assumptions(
    estimate: BidEstimate, workload: Workload, currency: str = "USD"
) -> list[Assumption]:
    """Every input the estimate used that the officer may want to challenge."""
    bid = estimate.bid
    catalog = default_catalog()
    gpu = catalog.gpu(bid.capacity.gpu_model)
    fabric = catalog.fabric(bid.fabric.technology)
    reliability = effective_reliability(bid)  # not-stated figures: their documented defaults
    said = {path.split(".")[1]: source.label for path, source in bid.provenance.items()}
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
    mfu_source = (
        _evidence_source(estimate.efficiency_evidence)
        if estimate.efficiency_evidence
        else f"the workload's baseline MFU (the buyer's figure inside one NVLink domain, BF16 on H100) x"
        f" {stack_mfu_factor(workload.software_stack, gpu, workload.precision):.3f} for {gpu.id}"
        f" at {workload.precision} ({gpu.efficiency_source})"
        + _fp8_gain_words(workload, gpu)
        + _baseline_conversion(workload)
    )
    return [
        Assumption("Planned job size", f"{workload.job_gpus:,} GPUs", "workload"),
        Assumption(
            "Total training compute",
            flops_text(workload.total_training_flops),
            _flops_source(workload),
        ),
        Assumption(
            "Parallelism",
            f"TP {workload.tensor_parallel} x PP {workload.pipeline_parallel} x CP "
            f"{workload.context_parallel} "
            f"x DP {workload.data_parallel}",
            "workload",
        ),
        Assumption("Memory per GPU", *_memory_words(workload)),
        Assumption(
            f"Dense {workload.precision.upper()} peak",
            f"{estimate.peak_tflops:,.0f} TFLOP/s per GPU",
            gpu.source,
        ),
        Assumption("Baseline MFU", f"{estimate.baseline_mfu:.1%}", mfu_source),
        Assumption("Software stack", *stack_assumption(workload)),
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
            "Model-parallel communication per step", *_parallel_comm_words(estimate, workload)
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
