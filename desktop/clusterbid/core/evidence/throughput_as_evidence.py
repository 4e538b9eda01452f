"""A throughput row as evidence: the description an officer reads (the run, its recipe, its MFU
and how it was worked out, its flags) and the fields the cost model checks against the bid.

Apart from throughput.py (reading and judging one row) because this is what the rest of the
app sees of it: the evidence reader, `evidence parse` and the fit to the workload."""

from __future__ import annotations

from typing import Literal

from clusterbid.core.evidence.model import UNITS, Evidence, EvidenceKind
from clusterbid.core.evidence.provenance import TYPED_SUMMARY_NOTE, typed_summary_grade
from clusterbid.core.evidence.throughput import BASIS_WORDS, ThroughputResult, ThroughputRow


def throughput_evidence(
    result: ThroughputResult, *, artefact_sha256: str | None, artefact_name: str | None
) -> Evidence:
    """TRAINING_MFU at the row's scale, graded by who measured it and whether the file is kept.

    Step times become MFU too: the calibration's step-time path assumes the buyer's own model and
    batch, while a row states its own, so the batch-independent rate is the faithful translation.
    """
    row = result.row
    flags = "; ".join(f"{flag.code}: {flag.message}" for flag in result.flags)
    description = (
        f"{row.model}, {row.active_params_b:g}B active, {row.precision}, seq "
        f"{row.sequence_length}, "
        f"TP{row.tp} PP{row.pp}"
        + (f" CP{row.cp}" if row.cp > 1 else "")
        + f" DP{row.dp} on {row.gpus} {row.gpu_model}{recipe_words(row)}: "
        f"MFU {result.mfu:.2%} ({result.mfu_method}"
        + (
            f"; counts {BASIS_WORDS[basis]}"
            if (basis := _basis(row.mfu_flops_basis)) and not result.tokens_per_second
            else ""
        )
        + ")"
        + (f". Flags: {flags}" if flags else "")
        + f". {TYPED_SUMMARY_NOTE[0].upper()}{TYPED_SUMMARY_NOTE[1:]}"
    )
    return Evidence(
        kind=EvidenceKind.TRAINING_MFU, description=description[:2000], scale_gpus=row.gpus, value=result.mfu,
        unit=UNITS[EvidenceKind.TRAINING_MFU], grade=typed_summary_grade(row.measured_by),
        measured_by=row.measured_by, measured_on=row.measured_on,
        # What the run was, so the cost model can check it fits the bid and workload; an MFU
        # recomputed from tokens/s counts 6N (a stated one says nothing of its count).
        gpu_model=row.gpu_model, precision=row.precision, model_active_params_billions=row.active_params_b,
        sequence_length=row.sequence_length, tensor_parallel=row.tp, pipeline_parallel=row.pp,
        context_parallel=row.cp, global_batch_sequences=_sequences(row),
        mfu_flops_basis="6n" if result.tokens_per_second is not None else _basis(row.mfu_flops_basis),
        num_attention_heads=row.num_attention_heads, vocab_size=row.vocab_size,
        container_image=row.container_image, artefact_name=artefact_name, artefact_sha256=artefact_sha256,
    )  # fmt: skip


def recipe_words(row: ThroughputRow) -> str:
    """The recipe context a row gives, as the description and `evidence parse` print it."""
    parts = [
        f"{row.num_attention_heads} heads" if row.num_attention_heads else "",
        f"vocabulary {row.vocab_size:,}" if row.vocab_size else "",
        f"in {row.container_image}" if row.container_image else "",
    ]
    return "".join(f", {part}" for part in parts if part)


def _basis(stated: str | None) -> Literal["6n", "model", "hardware"] | None:
    """The evidence's basis from the row's column: unstated is None (the calibration reads it as
    model FLOPs and the fit counts it as missing context)."""
    if stated == "6n":
        return "6n"
    if stated == "model":
        return "model"
    if stated == "hardware":
        return "hardware"
    return None


def _sequences(row: ThroughputRow) -> int | None:
    """The row's global batch in sequences, when its tokens are a whole number of them."""
    tokens = row.global_batch_tokens
    if tokens is None or tokens % row.sequence_length:
        return None
    return tokens // row.sequence_length
