"""Let a bid's own measurements replace spec-derived figures: busbw, and baseline MFU."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from clusterbid.core.bid import Bid
from clusterbid.core.costmodel.evidence_fit import fit_training_evidence
from clusterbid.core.costmodel.inputs import BidArrays, WorkloadScalars
from clusterbid.core.costmodel.training import step_breakdown
from clusterbid.core.evidence.model import KIND_WORDS, Evidence, EvidenceGrade, EvidenceKind
from clusterbid.core.workload import Workload

GRADE_ORDER = list(EvidenceGrade)
MAX_CALIBRATED_MFU = 0.85
UNREACHABLE_MFU = (
    10.0  # ten times the dense peak: a measurement faster than this is impossible here
)


@dataclass(frozen=True, slots=True)
class Calibration:
    """Which evidence item set which figure of which bid (None: the spec-derived figure stands)."""

    busbw: list[Evidence | None]
    efficiency: list[Evidence | None]
    notes: list[list[str]]


def _best(items: list[Evidence], job_gpus: int) -> Evidence | None:
    """Strongest grade first, then the measurement closest in scale to the job."""
    if not items:
        return None
    return min(
        items, key=lambda e: (GRADE_ORDER.index(e.grade), abs(np.log(e.scale_gpus / job_gpus)))
    )


def _usable(bid: Bid, kinds: tuple[EvidenceKind, ...]) -> list[Evidence]:
    return [e for e in bid.evidence if e.kind in kinds and e.grade is not EvidenceGrade.DERIVED]


def calibrate(
    w: WorkloadScalars, b: BidArrays, bids: list[Bid], workload: Workload
) -> tuple[BidArrays, Calibration]:
    """Measured busbw replaces the spec figure; a measured MFU or step time at N GPUs that fits
    the bid and workload (evidence_fit.py) sets the bid's baseline MFU so that the model
    reproduces the measurement at N, then carries it to the planned job size."""
    node_busbw = b.node_busbw_gb_s.copy()
    spans_leaves = b.busbw_spans_leaves.copy()
    busbw_used: list[Evidence | None] = []
    notes: list[list[str]] = [[] for _ in bids]
    for i, bid in enumerate(bids):
        # Only a run that spans nodes measures the scale-out fabric.
        spanning = [
            e
            for e in _usable(bid, (EvidenceKind.ALLREDUCE_BUSBW,))
            if e.scale_gpus > b.gpus_per_node[i]
        ]
        # A figure a check flagged (e.g. above the NIC aggregate) stays out unless overridden.
        notes[i] += [f"busbw {e.value:g} GB/s not used (flagged: {e.suspect}); spec figure kept" for e in spanning
                     if e.suspect and not e.suspect_override]  # fmt: skip
        spanning = [e for e in spanning if not e.suspect or e.suspect_override]
        chosen = _best(spanning, w.job_gpus)
        busbw_used.append(chosen)
        if chosen is not None:
            node_busbw[i] = chosen.value
            spans_leaves[i] = chosen.scale_gpus > b.leaf_domain_gpus[i]  # the spine is in it
    b = b.replace(node_busbw_gb_s=node_busbw, busbw_spans_leaves=spans_leaves)

    mfu = b.baseline_mfu.copy()
    efficiency_used: list[Evidence | None] = []
    for i, bid in enumerate(bids):
        fitting = []
        for item in _usable(bid, (EvidenceKind.TRAINING_MFU, EvidenceKind.TRAINING_STEP_TIME)):
            fit = fit_training_evidence(item, bid, workload)
            notes[i] += fit.notes
            fitting += [fit.evidence] if fit.evidence is not None else []
        efficiency_used.append(_best(fitting, w.job_gpus))
    rows = [
        i
        for i, chosen in enumerate(efficiency_used)
        if chosen is not None and not np.isnan(b.peak_flops[i])
    ]
    # Each measurement is solved through the layout, batch and sequence it ran (those it records),
    # not the workload's: an MFU measured at TP 1 had no tensor-parallel all-reduces to explain.
    solved = [
        float(
            _solve_baseline_mfu(
                run_scalars(workload, efficiency_used[i]), b, [i], [efficiency_used[i]]
            )[0]
        )
        for i in rows
    ]
    for i, value in zip(rows, solved, strict=True):
        chosen = efficiency_used[i]
        if np.isnan(value):
            notes[i].append(
                f"{KIND_WORDS[chosen.kind]} evidence at {chosen.scale_gpus} GPUs is faster than this "
                "bid's fabric "
                "allows for the workload's communication: kept the workload's baseline MFU"
            )
            efficiency_used[i] = None
            continue
        if value > MAX_CALIBRATED_MFU:
            notes[i].append(
                f"calibrated baseline MFU {value:.1%} capped at {MAX_CALIBRATED_MFU:.0%}"
            )
            value = MAX_CALIBRATED_MFU
        mfu[i] = value
    return b.replace(baseline_mfu=mfu), Calibration(busbw_used, efficiency_used, notes)


def run_scalars(workload: Workload, evidence: Evidence | None) -> WorkloadScalars:
    """The workload as the measured run had it: its recorded TP, PP, sequence length and global
    batch in place of the workload's (the model and everything unrecorded stay the workload's)."""
    if evidence is None:
        return WorkloadScalars.from_workload(workload)
    changes: dict[str, int] = {}
    if evidence.tensor_parallel is not None:
        changes["tensor_parallel"] = evidence.tensor_parallel
    if evidence.pipeline_parallel is not None:
        changes["pipeline_parallel"] = evidence.pipeline_parallel
        if evidence.pipeline_parallel == 1:
            changes["virtual_pipeline_stages"] = 1
    if evidence.context_parallel is not None:
        changes["context_parallel"] = evidence.context_parallel
    elif evidence.tensor_parallel is not None and evidence.pipeline_parallel is not None:
        # A layout given as TP and PP has no context parallelism (the frameworks' default, 1): the
        # workload's CP 8 for 32k tokens is not the 4k run's (issue 36, sequence carry).
        changes["context_parallel"] = 1
    sequence = evidence.sequence_length or workload.sequence_length
    sequences = evidence.global_batch_sequences or workload.global_batch_sequences
    changes.update(
        sequence_length=sequence,
        global_batch_tokens=sequences * sequence,
        job_gpus=evidence.scale_gpus,
    )
    run = workload.model_copy(update=changes)
    replica = run.tensor_parallel * run.pipeline_parallel * run.context_parallel
    if evidence.scale_gpus % replica or sequences % (
        evidence.scale_gpus // replica * run.micro_batch_size
    ):
        # The record does not make a whole layout at its scale (its CP is never recorded, for one):
        # solved through the workload's layout at the measured scale, as before.
        return WorkloadScalars.from_workload(workload)
    return WorkloadScalars.from_workload(run)


def _solve_baseline_mfu(
    w: WorkloadScalars, b: BidArrays, rows: list[int], evidence: list[Evidence]
) -> np.ndarray:
    """Per row, the baseline MFU at which the model's step time at the evidence's scale equals the
    measured one (nan when none can).

    The step time falls as the baseline MFU rises (compute shrinks, the overlap windows with it,
    communication stays), so a bisection in log space, run on every row at once, finds it to
    machine precision; nan when even an impossible MFU of 10 cannot reach the measured time (the
    fabric forbids it)."""
    sub = b.replace(**{name: getattr(b, name)[rows] for name in b.__slots__})
    n = np.array([float(e.scale_gpus) for e in evidence])
    c = w.model_flops_per_token * w.batch_tokens / (n * sub.peak_flops)
    measured = np.array(
        [
            c[k] / _model_basis_mfu(w, e) if e.kind is EvidenceKind.TRAINING_MFU else e.value
            for k, e in enumerate(evidence)
        ]
    )

    def step_at(mfu: np.ndarray) -> np.ndarray:
        return np.broadcast_to(step_breakdown(w, sub.replace(baseline_mfu=mfu), n).step_s, n.shape)

    low, high = np.full(n.shape, np.log(1e-6)), np.full(n.shape, np.log(UNREACHABLE_MFU))
    for _ in range(64):
        middle = (low + high) / 2.0
        too_slow = step_at(np.exp(middle)) > measured
        low, high = np.where(too_slow, middle, low), np.where(too_slow, high, middle)
    reachable = step_at(np.full(n.shape, UNREACHABLE_MFU)) <= measured
    return np.where(reachable, np.exp((low + high) / 2.0), np.nan)


def _model_basis_mfu(w: WorkloadScalars, evidence: Evidence) -> float:
    """An MFU on the model's own count (attention included): a 6N figure (the throughput reader
    computes 6 x params x tokens/s) is x the attention factor, a hardware figure / the
    recomputation ratio."""
    if evidence.mfu_flops_basis == "6n":
        return evidence.value * w.attention_factor
    if evidence.mfu_flops_basis == "hardware":
        return evidence.value / w.hardware_flops_ratio
    return evidence.value
