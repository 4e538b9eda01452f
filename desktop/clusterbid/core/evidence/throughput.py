"""Training-throughput evidence: one measured row, its MFU against the dense peak, and its red flags."""

from __future__ import annotations

import datetime as dt
from typing import Literal

from pydantic import Field, ValidationError, field_validator

from clusterbid.core.base import FrozenModel
from clusterbid.core.catalog import default_catalog
from clusterbid.core.errors import InputError
from clusterbid.core.evidence.errors import EvidenceParseError
from clusterbid.core.evidence.model import UNITS, Evidence, EvidenceKind
from clusterbid.core.evidence.nccl_result import NcclFlag
from clusterbid.core.evidence.provenance import TYPED_SUMMARY_NOTE, typed_summary_grade
from clusterbid.core.recipe_fields import check_container_image

# Above this share of dense peak no published LLM training run has been seen (the best public
# H100 runs report 40-60%); calibration caps at the same figure.
IMPLAUSIBLE_MFU = 0.85
# Two figures of one row that should agree (stated MFU vs tokens/s, tokens/s vs batch/step) may
# differ by rounding and by attention-FLOP conventions; beyond this they describe different runs.
AGREEMENT_TOLERANCE = 0.05
# Below this no training run is meant: the units are wrong (parameters in trillions, tokens per
# hour). Refused rather than flagged, since the figure cannot be repaired by reading it another way.
MIN_PLAUSIBLE_MFU = 1e-4

MfuDenominator = Literal["dense_peak", "sparse_peak", "unstated"]
# Which FLOPs a stated MFU counts (issue 36): 6N only, the model's with attention, or the
# hardware's (recomputed forward passes included, so "HFU"). Unstated is flagged and left open.
FlopsBasis = Literal["6n", "model", "hardware", "unstated"]
BASIS_WORDS = {
    "6n": "6 x parameters per token",
    "model": "model FLOPs with attention",
    "hardware": "hardware FLOPs, recomputation included",
}


class ThroughputRow(FrozenModel):
    """One measurement as written in the file (see resources/evidence-formats.md)."""

    line: int | None = Field(None, ge=1, description="1-based line in a CSV file")
    model: str = Field(min_length=1, max_length=200)
    active_params_b: float = Field(
        gt=0, le=100_000, description="Active parameters per token, billions"
    )
    precision: Literal["bf16", "fp8"]
    sequence_length: int = Field(ge=1, le=10_000_000)
    tp: int = Field(ge=1, le=1024)
    pp: int = Field(ge=1, le=1024)
    cp: int = Field(1, ge=1, le=1024)
    dp: int = Field(ge=1, le=1_000_000)
    gpus: int = Field(ge=1, le=1_000_000)
    tokens_per_second: float | None = Field(None, gt=0, description="Whole job, not per GPU")
    step_time_s: float | None = Field(None, gt=0)
    mfu: float | None = Field(None, gt=0, le=1, description="As stated by whoever measured it")
    global_batch_tokens: int | None = Field(None, ge=1)
    mfu_denominator: MfuDenominator | None = None
    mfu_flops_basis: FlopsBasis | None = Field(
        None, description="Which FLOPs the stated mfu counts"
    )
    gpu_model: str = Field(min_length=1, max_length=64, description="Catalog id, e.g. H100-SXM")
    measured_by: Literal["buyer", "third_party", "provider"]
    measured_on: dt.date | None = None
    # Issue 39 item 5: the recipe's context, so a returned run can be held to the request's
    # (heads and vocabulary of the model, the container image pinned by its digest).
    num_attention_heads: int | None = Field(None, ge=1, le=4096)
    vocab_size: int | None = Field(None, ge=2, le=10_000_000)
    container_image: str | None = Field(None, max_length=400, description="name@sha256:digest")

    @field_validator("container_image")
    @classmethod
    def _pinned(cls, image: str | None) -> str | None:
        return check_container_image(image)


class ThroughputResult(FrozenModel):
    """A row with the MFU the cost model will use and what the buyer should worry about."""

    row: ThroughputRow
    tokens_per_second: float | None = Field(
        description="From the tokens/s column, or global batch / step time"
    )
    dense_peak_tflops: float
    mfu: float = Field(
        gt=0, le=1, description="Fraction of the dense peak, recomputed where possible"
    )
    mfu_method: str
    flags: tuple[NcclFlag, ...] = ()

    def flag_codes(self) -> tuple[str, ...]:
        return tuple(flag.code for flag in self.flags)


def mfu_from_tokens(
    active_params_b: float, tokens_per_second: float, gpus: int, dense_peak_tflops: float
) -> float:
    """6 x active parameters x tokens/s over the job's dense peak: the cost model's own FLOP count."""
    return 6.0 * active_params_b * 1e9 * tokens_per_second / (gpus * dense_peak_tflops * 1e12)


def build_row(cells: dict[str, object], source: str, line: int | None, where: str) -> ThroughputRow:
    """Validate one row's typed cells; the error names the line (CSV) or path (JSON) and field."""
    try:
        return ThroughputRow.model_validate({"line": line, **cells})
    except ValidationError as exc:
        error = exc.errors()[0]
        field = ".".join(str(part) for part in error["loc"]) or "row"
        found = (
            f", found {str(error['input'])[:40]!r}"
            if error["type"] not in ("missing", "value_error") and error["loc"]
            else ""
        )
        message = error["msg"].removeprefix("Value error, ")  # a check's own words name the value
        said = message if message.startswith(field) else f"{field}: {message}"
        raise EvidenceParseError(source, line, f"{where}{said}{found}") from None


def _dense_peak(row: ThroughputRow, source: str, where: str) -> float:
    try:
        gpu = default_catalog().gpu(row.gpu_model)
    except InputError as exc:
        raise EvidenceParseError(source, row.line, f"{where}gpu_model: {exc}") from None
    peak = gpu.dense_tflops(row.precision)
    if peak is None:
        raise EvidenceParseError(
            source, row.line, f"{where}precision: {gpu.id} has no {row.precision} tensor cores"
        )
    return peak


def _tokens_per_second(
    row: ThroughputRow, source: str, where: str, flags: list[NcclFlag]
) -> float | None:
    from_step = None
    if row.step_time_s is not None:
        if row.global_batch_tokens is None:
            raise EvidenceParseError(
                source,
                row.line,
                f"{where}step_time_s needs global_batch_tokens "
                "(tokens per optimizer step) to become a throughput",
            )
        from_step = row.global_batch_tokens / row.step_time_s
    if row.tokens_per_second is not None and from_step is not None:
        if abs(from_step / row.tokens_per_second - 1) > AGREEMENT_TOLERANCE:
            flags.append(
                NcclFlag(
                    code="throughput_mismatch",
                    message=(
                        f"tokens_per_second {row.tokens_per_second:g} disagrees with "
                        "global_batch_tokens / step_time_s "
                        f"= {from_step:g}: they describe different runs; the tokens_per_second "
                        "column is used"
                    ),
                )
            )
        return row.tokens_per_second
    return row.tokens_per_second if row.tokens_per_second is not None else from_step


def evaluate_row(row: ThroughputRow, source: str, where: str = "") -> ThroughputResult:
    """MFU against the catalog's dense peak, with the flags cost-model.md asks for."""
    flags: list[NcclFlag] = []
    if row.tokens_per_second is None and row.step_time_s is None and row.mfu is None:
        raise EvidenceParseError(
            source,
            row.line,
            f"{where}give one of tokens_per_second, step_time_s (with global_batch_tokens) or mfu",
        )
    if row.mfu is not None and row.mfu_denominator is None:
        raise EvidenceParseError(
            source,
            row.line,
            f"{where}mfu_denominator is required with mfu: dense_peak, sparse_peak or unstated",
        )
    peak = _dense_peak(row, source, where)
    tokens = _tokens_per_second(row, source, where, flags)
    if tokens is not None:
        mfu = mfu_from_tokens(row.active_params_b, tokens, row.gpus, peak)
        method = (
            f"6 x {row.active_params_b:g}e9 active params x {tokens:,.0f} tokens/s / ({row.gpus} x "
            f"{peak:g} TFLOP/s dense)"
        )
        if row.mfu is not None:
            _check_stated_mfu(row, mfu, flags)
    else:
        assert row.mfu is not None and row.mfu_denominator is not None
        mfu, method = _mfu_as_stated(row, peak, flags)
        _check_stated_basis(row, flags)
    if row.tp * row.pp * row.cp * row.dp != row.gpus:
        flags.append(
            NcclFlag(
                code="parallelism_mismatch",
                message=(
                    f"tp x pp x cp x dp = {row.tp} x {row.pp} x {row.cp} x {row.dp} = "
                    f"{row.tp * row.pp * row.cp * row.dp}, "
                    f"not the {row.gpus} GPUs stated: the run used a different layout or GPU count"
                ),
            )
        )
    if mfu > 1:
        raise EvidenceParseError(
            source,
            row.line,
            (
                f"{where}MFU works out at {mfu:.0%} of the dense peak, which is impossible: check "
                "that "
                "active_params_b is in billions and tokens_per_second is for the whole job, not "
                "per GPU"
            ),
        )
    if not mfu >= MIN_PLAUSIBLE_MFU:
        raise EvidenceParseError(
            source,
            row.line,
            (
                f"{where}MFU works out at {mfu:.2g} of the dense peak, far too low for a training "
                "run: check "
                "that active_params_b is in billions and tokens_per_second is per second"
            ),
        )
    if mfu > IMPLAUSIBLE_MFU:
        flags.append(
            NcclFlag(
                code="mfu_implausible",
                message=(
                    f"MFU {mfu:.1%} of dense peak is above {IMPLAUSIBLE_MFU:.0%}, beyond any "
                    "published LLM training run: "
                    "ask for the training log"
                ),
            )
        )
    return ThroughputResult(
        row=row,
        tokens_per_second=tokens,
        dense_peak_tflops=peak,
        mfu=mfu,
        mfu_method=method,
        flags=tuple(flags),
    )


def _check_stated_mfu(row: ThroughputRow, computed: float, flags: list[NcclFlag]) -> None:
    stated = row.mfu or 0.0
    if row.mfu_denominator == "sparse_peak":
        flags.append(
            NcclFlag(
                code="mfu_sparse_denominator",
                message=(
                    f"the stated MFU {stated:.1%} is against a sparse (2:4) peak; recomputed from "
                    "tokens/s against "
                    f"the dense peak: {computed:.1%}"
                ),
            )
        )
        return
    if row.mfu_denominator == "unstated":
        flags.append(
            NcclFlag(
                code="mfu_denominator_unstated",
                message=(
                    f"the stated MFU {stated:.1%} does not say which peak it divides by; "
                    "recomputed from tokens/s "
                    f"against the dense peak: {computed:.1%}"
                ),
            )
        )
    if row.mfu_flops_basis in ("model", "hardware"):
        return  # another count than 6N: not comparable without the architecture; 6N is used
    if abs(stated / computed - 1) > AGREEMENT_TOLERANCE:
        hint = (
            " (about half: a sparse-peak denominator?)"
            if abs(stated / computed - 0.5) <= AGREEMENT_TOLERANCE
            else ""
        )
        flags.append(
            NcclFlag(
                code="mfu_mismatch",
                message=(
                    f"the stated MFU {stated:.1%} disagrees with 6 x params x tokens/s over the "
                    "dense peak, "
                    f"{computed:.1%}{hint}; the recomputed figure is used"
                ),
            )
        )


def _check_stated_basis(row: ThroughputRow, flags: list[NcclFlag]) -> None:
    """A stated MFU used as is must say which FLOPs it counts: a hardware (HFU) figure read as
    model FLOPs overstates the run by the recomputed share (a third more with full recomputation)."""
    if row.mfu_flops_basis in (None, "unstated"):
        flags.append(
            NcclFlag(
                code="mfu_flops_basis_unstated",
                message=(
                    f"the stated MFU {row.mfu or 0.0:.1%} does not say which FLOPs it counts (6 x "
                    "parameters, model "
                    "FLOPs with attention, or hardware FLOPs with recomputation): taken as model "
                    "FLOPs and drawn wider; "
                    "ask for tokens/s or the mfu_flops_basis"
                ),
            )
        )


def _mfu_as_stated(row: ThroughputRow, peak: float, flags: list[NcclFlag]) -> tuple[float, str]:
    stated = row.mfu or 0.0
    if row.mfu_denominator == "dense_peak":
        return stated, f"as stated, against the {peak:g} TFLOP/s dense peak"
    if row.mfu_denominator == "sparse_peak":
        # The sparse peak is twice the dense one, so the same FLOPs are twice the dense share.
        flags.append(
            NcclFlag(
                code="mfu_sparse_denominator",
                message=(
                    f"the stated MFU {stated:.1%} divides by the sparse (2:4) peak, twice the "
                    "dense one; "
                    f"rescaled to {2 * stated:.1%} of the dense peak. Ask for tokens/s to check it"
                ),
            )
        )
        return (
            2 * stated,
            f"stated {stated:.4g} of the sparse peak x 2 = share of the {peak:g} TFLOP/s dense "
            "peak",
        )
    flags.append(
        NcclFlag(
            code="mfu_denominator_unstated",
            message=(
                f"the stated MFU {stated:.1%} does not say which peak it divides by; taken as "
                "dense, but if it was "
                "the sparse peak the run was twice as efficient. Ask for tokens/s"
            ),
        )
    )
    return stated, "as stated; denominator unstated, taken as the dense peak"


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
