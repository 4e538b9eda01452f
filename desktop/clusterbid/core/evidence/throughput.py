"""Training-throughput evidence: one measured row, its MFU against the dense peak, and its red flags."""

from __future__ import annotations

import datetime as dt
from typing import Literal

from pydantic import Field, ValidationError, field_validator

from clusterbid.core.base import FrozenModel
from clusterbid.core.catalog import default_catalog
from clusterbid.core.errors import InputError
from clusterbid.core.evidence.errors import EvidenceParseError
from clusterbid.core.evidence.nccl_result import NcclFlag
from clusterbid.core.evidence.throughput_stated_mfu import (
    AGREEMENT_TOLERANCE,
    check_stated_basis,
    check_stated_mfu,
    mfu_as_stated,
)
from clusterbid.core.recipe_fields import check_container_image

# Above this share of dense peak no published LLM training run has been seen (the best public
# H100 runs report 40-60%); calibration caps at the same figure.
IMPLAUSIBLE_MFU = 0.85
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
            check_stated_mfu(row, mfu, flags)
    else:
        assert row.mfu is not None and row.mfu_denominator is not None
        mfu, method = mfu_as_stated(row, peak, flags)
        check_stated_basis(row, flags)
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
