"""Let a bid's measured decode throughput replace the assumed HBM efficiency (MBU)."""

from __future__ import annotations

import numpy as np

from clusterbid.core.bid import Bid
from clusterbid.core.costmodel.calibration import GRADE_ORDER
from clusterbid.core.costmodel.serving import tp_communication_s
from clusterbid.core.costmodel.serving_inputs import ServingArrays, ServingScalars
from clusterbid.core.evidence.model import Evidence, EvidenceGrade, EvidenceKind


def _chosen(bid: Bid) -> Evidence | None:
    usable = [
        e for e in bid.evidence
        if e.kind is EvidenceKind.SERVING_DECODE_THROUGHPUT and e.grade is not EvidenceGrade.DERIVED
    ]
    return min(usable, key=lambda e: GRADE_ORDER.index(e.grade), default=None)


def _efficiency(
    weight_bytes: float, kv_bytes: float, compute_s: float, bandwidth: float, step_s: float
) -> float:
    """The HBM efficiency e at which the model's step, max(weights / (bw e), compute) + KV /
    (bw e), equals the measured one: (weights + KV) / (bw step) while the weight read hides the
    compute, else KV / (bw (step - compute)); inf when the step leaves no time to read."""
    if step_s <= 0:
        return np.inf
    memory_bound = (weight_bytes + kv_bytes) / (bandwidth * step_s)
    if weight_bytes / (bandwidth * memory_bound) >= compute_s:
        return memory_bound
    return kv_bytes / (bandwidth * (step_s - compute_s)) if step_s > compute_s else np.inf


def calibrate_serving(
    w: ServingScalars, b: ServingArrays, bids: list[Bid]
) -> tuple[ServingArrays, list[Evidence | None], list[list[str]]]:
    """A replica of `scale_gpus` GPUs measured at `batch_size` sequences and `value` output
    tokens/s decodes one step in batch/value seconds; the HBM efficiency that makes the model's
    step equal that time replaces the workload's. A measurement faster than the
    compute peak or the HBM peak allows is refused with a note."""
    efficiency = b.hbm_efficiency.copy()
    used: list[Evidence | None] = []
    notes: list[list[str]] = [[] for _ in bids]
    for i, bid in enumerate(bids):
        evidence = _chosen(bid)
        used.append(evidence)
        if evidence is None or np.isnan(b.peak_flops[i]):
            continue
        tp, batch = float(evidence.scale_gpus), float(evidence.batch_size)
        one = b.replace(**{name: getattr(b, name)[i : i + 1] for name in b.__slots__})
        comm = float(tp_communication_s(w, one, np.asarray(tp), np.asarray(batch)).ravel()[0])
        measured_step = batch / evidence.value - comm
        kv_shards = min(tp, w.kv_heads)
        weight_bytes = w.weight_bytes / tp
        kv_bytes = batch * w.kv_bytes_per_token * w.mean_decode_context / kv_shards
        compute = 2.0 * w.active_params * batch / (tp * b.peak_flops[i] * w.compute_efficiency)
        solved = _efficiency(weight_bytes, kv_bytes, compute, float(b.hbm_bandwidth_bytes_s[i]), measured_step)
        label = f"{evidence.value:,.0f} tokens/s at batch {evidence.batch_size} on {evidence.scale_gpus} GPU(s)"
        if measured_step <= compute:
            notes[i].append(f"serving evidence ({label}) is faster than the compute peak allows: kept the assumed HBM efficiency")
            used[-1] = None
        elif solved > 1.0:
            notes[i].append(f"serving evidence ({label}) implies more than the peak HBM bandwidth: kept the assumed HBM efficiency")
            used[-1] = None
        else:
            efficiency[i] = solved
    return b.replace(hbm_efficiency=efficiency), used, notes
