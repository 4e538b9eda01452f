"""Where a bid's figures come from, in words: the evidence behind a rate, the FLOP count, the
baseline MFU's conversions, memory per GPU, and the communication each step leaves exposed.

Apart from assumptions.py (the list of assumptions a memo prints) because a bid's page and the
exposed-communication table print some of these alone, without working out the whole list."""

from __future__ import annotations

from clusterbid.core.catalog import default_catalog
from clusterbid.core.costmodel.estimate import BidEstimate
from clusterbid.core.costmodel.inputs import WorkloadScalars
from clusterbid.core.evidence.model import (
    KIND_WORDS,
    MEASURED_BY_WORDS,
    Evidence,
    EvidenceGrade,
    grade_words,
)
from clusterbid.core.workload import Workload


def evidence_source(evidence: Evidence) -> str:
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


def flops_source(workload: Workload) -> str:
    basis = "6 x active params x tokens" if workload.total_flops is None else "as given (6ND basis)"
    if workload.num_layers is None:
        return f"{basis}; attention not counted (the workload gives no layers and hidden size)"
    return (
        f"{basis} x {workload.attention_factor:.4f} for attention, 1 + 12 l s h / 6N with "
        f"{workload.num_layers} "
        f"layers, hidden {workload.hidden_size:,}, sequence {workload.sequence_length:,} "
        "(Narayanan et al. 2021)"
    )


def baseline_conversion(workload: Workload) -> str:
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


def memory_words(workload: Workload) -> tuple[str, str]:
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


def parallel_comm_words(e: BidEstimate, workload: Workload) -> tuple[str, str]:
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
        evidence_source(estimate.busbw_evidence)
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
