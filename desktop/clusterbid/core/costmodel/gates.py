"""Hard gates (the job cannot run as planned on this bid) and warnings, per bid."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:  # (inputs reads the schedule, whose findings are of this module)
    from clusterbid.core.costmodel.inputs import BidArrays, WorkloadScalars

# Model state above this share of HBM leaves too little room for activations to train.
HBM_WARNING_SHARE = 0.85


@dataclass(frozen=True, slots=True)
class Finding:
    """A gate (blocks the bid) or a warning, with a stable code and words for the officer."""

    code: str
    message: str


def evaluate_gates(
    w: WorkloadScalars, b: BidArrays, fabric_names: list[str]
) -> list[list[Finding]]:
    """Reasons each bid cannot run the planned job as one synchronous job (empty: passes)."""
    n = w.job_gpus
    gates: list[list[Finding]] = [[] for _ in range(len(b.peak_flops))]
    for i in range(len(gates)):
        block = int(b.contiguous_block_gpus[i])
        if block < n:
            gates[i].append(
                Finding(
                    "contiguous_block_too_small",
                    f"largest contiguous block is {block:,} GPUs, smaller than the planned job of "
                    f"{n:,} GPUs: "
                    "the job cannot run as one synchronous job on this offer",
                )
            )
        domain = int(b.nvlink_domain_gpus[i])
        if w.tp > domain:
            gates[i].append(
                Finding(
                    "tp_exceeds_nvlink_domain",
                    f"tensor parallelism {w.tp} exceeds the {domain}-GPU NVLink domain: "
                    "TP traffic would cross the scale-out fabric",
                )
            )
        if n > b.gpus_per_node[i] and not b.multi_node_training_ok[i]:
            gates[i].append(
                Finding(
                    "tcp_only_multi_node",
                    f"{fabric_names[i]} has no RDMA: a {n:,}-GPU job spans "
                    f"{int(np.ceil(n / b.gpus_per_node[i])):,} nodes and would stall on gradient "
                    "exchange",
                )
            )
        if np.isnan(b.peak_flops[i]):
            gates[i].append(
                Finding(
                    "precision_unsupported",
                    "this GPU has no tensor cores for the workload's precision (e.g. FP8 on A100)",
                )
            )
        hbm = float(b.hbm_gb[i])
        if w.model_state_gb_per_gpu > hbm:
            gates[i].append(
                Finding(
                    "model_state_exceeds_hbm",
                    f"weights, gradients and optimizer state need {w.model_state_gb_per_gpu:.1f} "
                    "GB per GPU at this "
                    f"parallelism, more than the {hbm:.0f} GB of HBM: raise TP or PP, or shard the "
                    "optimizer",
                )
            )
        elif (
            w.activation_gb_per_gpu is not None
            and w.model_state_gb_per_gpu + w.activation_gb_per_gpu > hbm
            and not measured_to_fit(w, hbm)
        ):
            gates[i].append(Finding("activations_exceed_hbm", _activation_words(w, hbm)))
    return gates


def measured_to_fit(w: WorkloadScalars, hbm: float) -> bool:
    """Whether the buyer's measurement that the layout fits covers a GPU of `hbm` GB: measured on
    GPUs with no more memory than this one."""
    return w.measured_fit_hbm_gb is not None and hbm >= w.measured_fit_hbm_gb


def _activation_words(w: WorkloadScalars, hbm: float) -> str:
    assert w.activation_gb_per_gpu is not None  # the gate is raised only where it is known
    remedies = (["recompute activations (full)"] if w.recomputation != "full" else []) + [
        "raise CP or TP"
    ]
    remedies += ["shorten the micro-batch"] if w.micro_batch_size > 1 else []
    remedy = ", ".join(remedies[:-1]) + (" or " if len(remedies) > 1 else "") + remedies[-1]
    return (
        f"model state {w.model_state_gb_per_gpu:.1f} GB plus activations "
        f"{w.activation_gb_per_gpu:.1f} GB "
        f"(sequence {w.sequence_length:,} split over CP {w.cp}, micro-batch {w.micro_batch_size}, "
        f"TP {w.tp}, "
        f"recomputation {w.recomputation}, the first pipeline stage's micro-batches in flight) "
        "need "
        f"{w.model_state_gb_per_gpu + w.activation_gb_per_gpu:.1f} GB per GPU, more than the "
        f"{hbm:.0f} GB of HBM: "
        f"{remedy}"
    )


def _memory_gb(w: WorkloadScalars) -> float:
    """What a GPU holds: model state, plus activations when the architecture is known."""
    return w.model_state_gb_per_gpu + (w.activation_gb_per_gpu or 0.0)


def evaluate_warnings(
    w: WorkloadScalars, b: BidArrays, has_rdma: list[bool]
) -> list[list[Finding]]:
    """What does not block the bid but the officer should see."""
    n = w.job_gpus
    warnings: list[list[Finding]] = [[] for _ in range(len(b.peak_flops))]
    for i in range(len(warnings)):
        hbm = float(b.hbm_gb[i])
        if (
            w.activation_gb_per_gpu is None
            and HBM_WARNING_SHARE * hbm < w.model_state_gb_per_gpu <= hbm
        ):
            warnings[i].append(
                Finding(
                    "little_hbm_for_activations",
                    f"model state takes {w.model_state_gb_per_gpu / hbm:.0%} of HBM, leaving "
                    "little for activations "
                    "(activations not counted: the workload gives no num_layers and hidden_size)",
                )
            )
        elif (
            w.activation_gb_per_gpu is not None and _memory_gb(w) > hbm and measured_to_fit(w, hbm)
        ):
            warnings[i].append(
                Finding(
                    "activations_measured_to_fit",
                    f"the model counts {_memory_gb(w):.1f} GB per GPU (model state and "
                    "activations), more than the "
                    f"{hbm:.0f} GB of HBM, but the layout was measured to fit on "
                    f"{w.measured_fit_hbm_gb:g} GB GPUs "
                    f"({w.measured_fit_reference}): taken as fitting on the measurement's word",
                )
            )
        elif w.activation_gb_per_gpu is not None and HBM_WARNING_SHARE * hbm < _memory_gb(w) <= hbm:
            warnings[i].append(
                Finding(
                    "little_hbm_headroom",
                    f"model state and activations take {_memory_gb(w) / hbm:.0%} of HBM, leaving "
                    "little for the "
                    "framework's buffers and fragmentation",
                )
            )
        if n > b.leaf_domain_gpus[i] and b.oversubscription_ratio[i] > 1:
            warnings[i].append(
                Finding(
                    "oversubscribed_beyond_leaf",
                    f"the job outgrows one {int(b.leaf_domain_gpus[i]):,}-GPU leaf domain and the "
                    "uplinks are "
                    f"{b.oversubscription_ratio[i]:g}:1 oversubscribed: bandwidth between leaves "
                    "is divided",
                )
            )
        if n > b.gpus_per_node[i] and not has_rdma[i]:
            warnings[i].append(
                Finding(
                    "no_gpudirect_rdma", "no GPUDirect RDMA: gradients pass through host memory"
                )
            )
    return warnings
