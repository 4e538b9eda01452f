"""Let a bid's measured decode throughput set how fast its engine runs the model's kernels.

A serving benchmark measures the engine as a whole: its matmul kernels, its attention kernels
and its scheduling. Whether the measured batch was bound by the HBM reads or by the matmuls,
the figure says how much faster or slower than the workload's assumptions this engine runs on
this GPU, not which kernel is to blame, so one factor k scales both efficiencies (HBM and
compute): the step the model gives at the measured TP and batch, all-reduces aside, shrinks by
k. The first version solved for the HBM efficiency alone, with the prompts that ride in each
step left out of the matmuls: every public figure of methodology section 8 then read as 18-46%
MBU, which no engine runs at. With one factor and the model's own step, one published
figure of an engine predicts its other published figures within 13% (geometric mean 10%;
methodology section 8).
"""

from __future__ import annotations

import numpy as np

from clusterbid.core.bid import Bid
from clusterbid.core.costmodel.calibration import GRADE_ORDER
from clusterbid.core.costmodel.serving import decode_step
from clusterbid.core.costmodel.serving_inputs import ServingArrays, ServingScalars
from clusterbid.core.evidence.model import GRADE_WORDS, Evidence, EvidenceGrade, EvidenceKind


def _chosen(bid: Bid) -> Evidence | None:
    usable = [
        e for e in bid.evidence
        if e.kind is EvidenceKind.SERVING_DECODE_THROUGHPUT and e.grade is not EvidenceGrade.DERIVED
    ]
    return min(usable, key=lambda e: GRADE_ORDER.index(e.grade), default=None)


def engine_factor(w: ServingScalars, one: ServingArrays, tp: float, batch: float, tokens_per_s: float) -> float:
    """k such that the model's step at (tp, batch) on the one bid of `one`, its engine part
    divided by k plus the all-reduces, equals the measured batch / tokens_per_s; inf when the
    measured step is no longer than the all-reduces alone."""
    step = decode_step(w, one, np.asarray(tp, dtype=float), np.asarray(batch, dtype=float))
    comm = float(np.asarray(step.comm_s).ravel()[0])
    engine = float(np.asarray(step.engine_s).ravel()[0])
    measured = batch / tokens_per_s
    return engine / (measured - comm) if measured > comm else np.inf


def calibrate_serving(
    w: ServingScalars, b: ServingArrays, bids: list[Bid]
) -> tuple[ServingArrays, list[Evidence | None], list[list[str]]]:
    """A replica of `scale_gpus` GPUs measured at `batch_size` sequences and `value` output
    tokens/s runs one step in batch/value seconds; the engine factor that makes the model's step
    equal that time scales the bid's HBM and compute efficiencies. A measurement that would need
    either above its peak is refused with a note, and the workload's efficiencies stay."""
    hbm, compute = b.hbm_efficiency.copy(), b.compute_efficiency.copy()
    used: list[Evidence | None] = []
    notes: list[list[str]] = [[] for _ in bids]
    for i, bid in enumerate(bids):
        evidence = _chosen(bid)
        used.append(evidence)
        if evidence is None or np.isnan(b.peak_flops[i]):
            continue
        one = b.replace(**{name: getattr(b, name)[i : i + 1] for name in b.__slots__})
        k = engine_factor(w, one, float(evidence.scale_gpus), float(evidence.batch_size), evidence.value)
        gpus = f"{evidence.scale_gpus} GPU" + ("" if evidence.scale_gpus == 1 else "s")
        label = f"{evidence.value:,.0f} tokens/s at batch {evidence.batch_size} on {gpus}"
        if not np.isfinite(k) or hbm[i] * k > 1.0 or compute[i] * k > 1.0:
            notes[i].append(
                f"serving evidence ({label}) implies more than the peak HBM bandwidth or compute the GPU "
                f"has (the engine {k:.2f}x the assumed {hbm[i]:.0%} HBM and {compute[i]:.0%} compute "
                "efficiency): kept the assumed efficiencies"
                if np.isfinite(k) else
                f"serving evidence ({label}) is faster than the tensor-parallel all-reduces alone allow: "
                "kept the assumed efficiencies"
            )
            used[-1] = None
            continue
        notes[i].append(
            f"Costed with its serving benchmark ({GRADE_WORDS[evidence.grade]}): {label} puts the "
            f"engine at {k:.2f}x the assumed efficiencies (HBM {hbm[i] * k:.0%}, compute {compute[i] * k:.0%})"
        )
        hbm[i], compute[i] = hbm[i] * k, compute[i] * k
    return b.replace(hbm_efficiency=hbm, compute_efficiency=compute), used, notes
