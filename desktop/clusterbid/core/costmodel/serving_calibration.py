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
from clusterbid.core.catalog import Catalog, default_catalog
from clusterbid.core.costmodel.calibration import GRADE_ORDER
from clusterbid.core.costmodel.engine_efficiency import other_engine_note, run_engine_name
from clusterbid.core.costmodel.serving import decode_step
from clusterbid.core.costmodel.serving_evidence_shape import (
    arrays_at_run,
    extra_spread,
    missing_context,
    scalars_at_run,
)
from clusterbid.core.costmodel.serving_inputs import ServingArrays, ServingScalars
from clusterbid.core.evidence.model import GRADE_WORDS, Evidence, EvidenceGrade, EvidenceKind
from clusterbid.core.evidence.serving_models import find_model

# Issue 37: a batch this large per replica is where the model's per-step terms (every step
# carrying its share of prompts, the KV cache read by a separate kernel) are least tested against
# public runs: MLPerf Offline's 896 per TP2 replica reads as more than the GPU's peak.
LARGE_BATCH = 256


def _chosen(bid: Bid) -> Evidence | None:
    """The strongest serving figure; among equal grades the one whose run states the most."""
    usable = [
        e
        for e in bid.evidence
        if e.kind is EvidenceKind.SERVING_DECODE_THROUGHPUT and e.grade is not EvidenceGrade.DERIVED
    ]
    return min(
        usable, key=lambda e: (GRADE_ORDER.index(e.grade), len(missing_context(e))), default=None
    )


def engine_factor(
    w: ServingScalars, one: ServingArrays, tp: float, batch: float, tokens_per_s: float
) -> float:
    """k such that the model's step at (tp, batch) on the one bid of `one`, its engine part
    divided by k plus the all-reduces, equals the measured batch / tokens_per_s; inf when the
    measured step is no longer than the all-reduces alone."""
    step = decode_step(w, one, np.asarray(tp, dtype=float), np.asarray(batch, dtype=float))
    comm = float(np.asarray(step.comm_s).ravel()[0])
    engine = float(np.asarray(step.engine_s).ravel()[0])
    measured = batch / tokens_per_s
    return engine / (measured - comm) if measured > comm else np.inf


def likely_cause(evidence: Evidence) -> str:
    """The most likely reason a real result reads faster than the GPU's peak, in words."""
    causes = []
    if evidence.prompt_tokens is None:
        causes.append(
            "the run's prompt length is not stated (shorter prompts put fewer prefill tokens in "
            "each step "
            "than the workload's)"
        )
    if (evidence.batch_size or 0) >= LARGE_BATCH:
        causes.append(
            f"at {evidence.batch_size} sequences per replica the model's terms for prompts riding "
            "in every "
            "step and for the KV-cache read may overstate what this engine does at large batches"
        )
    return (
        "; ".join(causes)
        or "a term of the model that does not fit this engine (its kernels or scheduling)"
    )


# The words of the two refusals above the model's ceiling, which the attach decision and the
# memo's "What was not verified" read back: written once, here.
UNREPRODUCIBLE = "no engine factor can reproduce it"
ABOVE_PEAK = "reads as more than the peak HBM bandwidth or compute the GPU has"


def above_ceiling(note: str) -> bool:
    """Whether a calibration note is one of the refusals above the model's ceiling."""
    return UNREPRODUCIBLE in note or ABOVE_PEAK in note


def _refused(label: str, k: float, hbm: float, compute: float, evidence: Evidence) -> str:
    if not np.isfinite(k):
        return (
            f"serving evidence ({label}) is faster than the tensor-parallel all-reduces alone "
            f"allow: kept with the bid but not used ({UNREPRODUCIBLE})"
        )
    return (
        f"serving evidence ({label}) {ABOVE_PEAK} (the engine "
        f"{k:.2f}x the assumed {hbm:.0%} HBM and {compute:.0%} compute efficiency). Likely cause: "
        f"{likely_cause(evidence)}. Kept with the bid and flagged; costed without it until the "
        "officer records a "
        "reason to use it (serving-evidence attach --use-above-model REASON)"
    )


def calibrate_serving(
    w: ServingScalars,
    b: ServingArrays,
    bids: list[Bid],
    use_flagged: bool = False,
    catalog: Catalog | None = None,
) -> tuple[ServingArrays, list[Evidence | None], list[list[str]]]:
    """A replica of `scale_gpus` GPUs measured at `batch_size` sequences and `value` output
    tokens/s runs one step in batch/value seconds; the engine factor that makes the model's step,
    worked out at the run's own shape, equal that time scales the bid's HBM and compute
    efficiencies. A figure that reads as more than the GPU's peak is kept and flagged, and used
    only with the officer's recorded reason (or `use_flagged`, to show its effect)."""
    catalog = catalog or default_catalog()
    hbm, compute = b.hbm_efficiency.copy(), b.compute_efficiency.copy()
    used: list[Evidence | None] = []
    notes: list[list[str]] = [[] for _ in bids]
    for i, bid in enumerate(bids):
        evidence = _chosen(bid)
        used.append(evidence)
        if evidence is None or np.isnan(b.peak_flops[i]):
            continue
        at_run = scalars_at_run(w, evidence)
        one = b.replace(**{name: getattr(b, name)[i : i + 1] for name in b.__slots__})
        one = arrays_at_run(one, evidence, at_run.precision, catalog, bid.capacity.gpu_model)
        gpus = f"{evidence.scale_gpus} GPU" + ("" if evidence.scale_gpus == 1 else "s")
        # A figure past a billion prints in powers of ten, not as a 300-digit number.
        rate = f"{evidence.value:,.0f}" if evidence.value < 1e9 else f"{evidence.value:.3g}"
        label = f"{rate} tokens/s at batch {evidence.batch_size} on {gpus}"
        if np.isnan(one.peak_flops[0]):
            notes[i].append(
                f"serving evidence ({label}) ran on a GPU without {at_run.precision.upper()} "
                "tensor cores: "
                "kept the assumed efficiencies"
            )
            used[-1] = None
            continue
        k = engine_factor(
            at_run, one, float(evidence.scale_gpus), float(evidence.batch_size), evidence.value
        )
        above = not np.isfinite(k) or hbm[i] * k > 1.0 or compute[i] * k > 1.0
        accepted = np.isfinite(k) and (use_flagged or evidence.suspect_override is not None)
        if above and not accepted:
            notes[i].append(_refused(label, k, hbm[i], compute[i], evidence))
            used[-1] = None
            continue
        shape = (
            f" at its own {at_run.prompt_tokens:,.0f}-token prompts and "
            f"{at_run.output_tokens:,.0f}-token outputs"
            if evidence.prompt_tokens is not None and evidence.output_tokens is not None
            else ""
        )
        reason = (
            " (above the model's ceiling, used for the officer's recorded reason: "
            f"{evidence.suspect_override})"
            if above and evidence.suspect_override
            else ""
        )
        notes[i].append(
            f"Costed with its serving benchmark ({GRADE_WORDS[evidence.grade]}): {label}{shape} "
            "puts the "
            f"engine at {k:.2f}x the assumed efficiencies (HBM {hbm[i] * k:.0%}, compute "
            f"{compute[i] * k:.0%}){reason}"
        )
        other = other_engine_note(w.serving_engine, run_engine_name(evidence))
        if other:  # issue 37: the run still sets the factor, but says it measured another engine
            notes[i].append(other)
        if evidence.model_name and find_model(evidence.model_name) is None:
            notes[i].append(
                f"The run's model {evidence.model_name} is not in the model catalog: its KV cache "
                "per token and all-reduces were taken as the service's model's"
            )
        missing = missing_context(evidence)
        if missing:
            # A claim is drawn like a bid without evidence (serving_montecarlo); a measured run's
            # draw is widened for what it leaves out.
            spread = (
                ""
                if evidence.grade is EvidenceGrade.PROVIDER_CLAIM
                else f" (its spread widened by {extra_spread(evidence):.0%} in the bands)"
            )
            notes[i].append(
                f"The run does not state its {', '.join(missing)}: solved with the workload's, so "
                "the figure counts "
                f"for less{spread}"
            )
        hbm[i], compute[i] = hbm[i] * k, compute[i] * k
    return b.replace(hbm_efficiency=hbm, compute_efficiency=compute), used, notes
