"""Whether a training measurement fits the bid and the workload it would calibrate.

A step time is a fact about one model, batch and layout: measured on anything else it says
nothing about this job. An MFU transfers between models of similar size (the width term of
flops.py carries it), but not between GPUs or precisions: the catalog's factors do that from
the workload's baseline. So a figure measured on another GPU or precision is refused; a step
time of another model, sequence or layout is refused; an MFU of a model more than twice as large
or small, of a sequence more than twice as long or short, of another TP/PP layout, of other
attention heads or vocabulary, or run in another container than the request pinned
(recipe_fit.py) is used but down-graded to a provider claim (wider spread and the claim's
haircut in the Monte Carlo), and a note says why. Context the measurement does not record
(GPU, precision, model size, sequence, layout, global batch, and for an MFU the FLOPs it
counts) is never taken as matching in silence (issue 36): the figure is used one grade lower
(a buyer's measurement becomes a provider's, a provider's a claim), a measurement's band
widened for each missing item (uncertainty/spreads.py; a claim is already drawn as silence),
and the note and the figure's source line say what to ask.
"""

from __future__ import annotations

from dataclasses import dataclass

from clusterbid.core.bid import Bid
from clusterbid.core.costmodel.recipe_fit import container_mismatch, shape_mismatches
from clusterbid.core.evidence.model import (
    GRADE_WORDS,
    KIND_WORDS,
    Evidence,
    EvidenceGrade,
    EvidenceKind,
    figure_words,
)
from clusterbid.core.workload import Workload

# An MFU measured on a model within this factor of the workload's size (or sequence length)
# is taken at its grade; beyond it the GEMM shapes and the memory-bound share differ enough
# (flops.WIDTH_H0: about 10% between 7B and 70B widths) that it is down-graded.
MFU_SIZE_FACTOR = 2.0
# A step time must be of the same model: parameter counts quoted to a few percent.
STEP_SIZE_TOLERANCE = 0.10


# Missing context lowers a measurement one grade (a mismatch goes straight to a claim): the
# artefact still shows the run happened, but not that it was this bid's and workload's run.
ONE_GRADE_LOWER = {
    EvidenceGrade.MEASURED_INDEPENDENT: EvidenceGrade.MEASURED_PROVIDER,
    EvidenceGrade.MEASURED_PROVIDER: EvidenceGrade.PROVIDER_CLAIM,
}


@dataclass(frozen=True, slots=True)
class Fit:
    evidence: Evidence | None  # None: refused; otherwise the figure to use (perhaps down-graded)
    notes: tuple[str, ...]


def _graded(grade: EvidenceGrade) -> str:
    """A grade in a down-grade note: the officer's words ("measured by the provider"), a claim
    said shortly (its 'no raw data' is the note's very point)."""
    return "a provider's claim" if grade is EvidenceGrade.PROVIDER_CLAIM else GRADE_WORDS[grade]


def _outside(measured: float, planned: float, factor: float) -> bool:
    return not (planned / factor <= measured <= planned * factor)


def fit_training_evidence(evidence: Evidence, bid: Bid, workload: Workload) -> Fit:
    """Refuse, down-grade or accept one TRAINING_MFU / TRAINING_STEP_TIME item for this bid."""
    what = (
        f"{KIND_WORDS[evidence.kind]} {figure_words(evidence.value, evidence.unit)} at "
        f"{evidence.scale_gpus:,} GPUs"
    )
    if evidence.gpu_model is not None and evidence.gpu_model != bid.capacity.gpu_model:
        return Fit(
            None,
            (
                f"{what} was measured on {evidence.gpu_model}, the bid offers "
                f"{bid.capacity.gpu_model}: "
                "not used (the catalog's per-GPU factor applies to the workload's baseline "
                "instead)",
            ),
        )
    if evidence.precision is not None and evidence.precision != workload.precision:
        return Fit(
            None,
            (
                f"{what} was measured at {evidence.precision}, the workload runs "
                f"{workload.precision}: "
                "not used",
            ),
        )
    mismatches = _mismatches(evidence, workload)
    if evidence.kind is EvidenceKind.TRAINING_STEP_TIME and mismatches:
        return Fit(
            None,
            (
                f"{what} is a step time of another run ({'; '.join(mismatches)}): a step time only "
                "calibrates the workload's own model, batch and layout; not used",
            ),
        )
    # Another container than the request pinned is another software stack: down-graded like a
    # mismatch, but a step time in it still measures this model and batch (recipe_fit.py).
    software = container_mismatch(evidence.container_image, workload)
    mismatches += [software] if software else []
    notes = []
    missing = missing_context(evidence) + _attention_unknown(evidence, workload)
    if missing:
        was = evidence.grade
        lower = EvidenceGrade.PROVIDER_CLAIM if mismatches else ONE_GRADE_LOWER.get(was, was)
        evidence = evidence.model_copy(update={"grade": lower, "missing_context": missing})
        notes.append(
            f"{what} does not record its {', '.join(missing)}: taken as this bid's and workload's, "
            + (
                f"down-graded from {_graded(was)} to {_graded(lower)}"
                if lower is not was
                else "kept a claim"
            )
            + " and drawn wider; ask for them"
        )
        if mismatches:
            notes.append(f"{what} measured another run ({'; '.join(mismatches)})")
        return Fit(evidence, tuple(notes))
    if mismatches and evidence.grade is not EvidenceGrade.PROVIDER_CLAIM:
        notes.append(
            f"{what} measured another run ({'; '.join(mismatches)}): used, down-graded from "
            f"{_graded(evidence.grade)} to {_graded(EvidenceGrade.PROVIDER_CLAIM)}"
        )
        return Fit(
            evidence.model_copy(update={"grade": EvidenceGrade.PROVIDER_CLAIM}), tuple(notes)
        )
    if mismatches:
        notes.append(
            f"{what} measured another run ({'; '.join(mismatches)}): used as the claim it is"
        )
    return Fit(evidence, tuple(notes))


def missing_context(evidence: Evidence) -> tuple[str, ...]:
    """What a training run did not record, in the words the note prints."""
    layout = (
        None
        if evidence.tensor_parallel is None or evidence.pipeline_parallel is None
        else "recorded"
    )
    basis = evidence.mfu_flops_basis if evidence.kind is EvidenceKind.TRAINING_MFU else "not needed"
    recorded = [
        (evidence.gpu_model, "GPU"),
        (evidence.precision, "precision"),
        (evidence.model_active_params_billions, "model size"),
        (evidence.sequence_length, "sequence length"),
        (layout, "layout (TP and PP)"),
        (evidence.global_batch_sequences, "global batch"),
        (basis, "FLOPs basis (6N, with attention, or hardware)"),
    ]
    missing = [label for value, label in recorded if value is None]
    return tuple(missing)


def _attention_unknown(evidence: Evidence, workload: Workload) -> tuple[str, ...]:
    """Carrying a run to another sequence length grows its attention work by 2 l s h / N per token
    (flops.attention_factor), which needs the workload's layers and width: without them the carry
    would treat attention as constant, so the gap counts as missing context (issue 36)."""
    seq = evidence.sequence_length
    if seq is None or seq == workload.sequence_length:
        return ()
    if workload.num_layers is not None and workload.hidden_size is not None:
        return ()
    return (
        f"attention growth from sequence {seq:,} to {workload.sequence_length:,} (the workload "
        "gives no "
        "layers and width)",
    )


def _mismatches(evidence: Evidence, workload: Workload) -> list[str]:
    step = evidence.kind is EvidenceKind.TRAINING_STEP_TIME
    found = []
    size = evidence.model_active_params_billions
    planned = workload.active_params_billions
    if size is not None and (
        abs(size / planned - 1) > STEP_SIZE_TOLERANCE
        if step
        else _outside(size, planned, MFU_SIZE_FACTOR)
    ):
        found.append(f"{size:g}B active parameters against the workload's {planned:g}B")
    seq = evidence.sequence_length
    if seq is not None and (
        seq != workload.sequence_length
        if step
        else _outside(seq, workload.sequence_length, MFU_SIZE_FACTOR)
    ):
        found.append(f"sequence {seq:,} against {workload.sequence_length:,}")
    layout = [
        (evidence.tensor_parallel, workload.tensor_parallel, "TP"),
        (evidence.pipeline_parallel, workload.pipeline_parallel, "PP"),
    ]
    found += [
        f"{name} {got} against {want}"
        for got, want, name in layout
        if got is not None and got != want
    ]
    found += shape_mismatches(evidence.num_attention_heads, evidence.vocab_size, workload)
    batch = evidence.global_batch_sequences
    if step and batch is not None and batch != workload.global_batch_sequences:
        found.append(
            f"global batch {batch:,} sequences against {workload.global_batch_sequences:,}"
        )
    return found
