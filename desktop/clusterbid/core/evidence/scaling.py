"""Scaling tables: one workload measured at several GPU counts, read from CSV and fitted."""

from __future__ import annotations

import datetime as dt
import math
from dataclasses import dataclass

import numpy as np

from clusterbid.core.catalog import default_catalog
from clusterbid.core.errors import InputError
from clusterbid.core.evidence.errors import EvidenceParseError
from clusterbid.core.evidence.model import UNITS, Evidence, EvidenceKind
from clusterbid.core.evidence.nccl_result import NcclFlag
from clusterbid.core.evidence.provenance import (
    TYPED_SUMMARY_NOTE,
    parse_measured_by,
    parse_measured_on,
    typed_summary_grade,
)
from clusterbid.core.evidence.scaling_fit import (
    SUPERLINEAR_EXPONENT,
    Extrapolation,
    ScalingFit,
    extrapolate,
    fit_power_law,
    measured_efficiency,
)
from clusterbid.core.evidence.throughput import IMPLAUSIBLE_MFU, MIN_PLAUSIBLE_MFU, mfu_from_tokens

HEADER = ("gpus", "tokens_per_second")
# The run's layout and shape, optional: each one recorded travels with every row's evidence, so the
# calibration solves the table through the layout it ran (issue 36 item 3); each one left out is
# named in the bid's notes.
LAYOUT_KEYS = (
    "sequence_length",
    "tensor_parallel",
    "pipeline_parallel",
    "context_parallel",
    "global_batch_sequences",
)
SETUP_KEYS = (
    "model",
    "active_params_b",
    "precision",
    "gpu_model",
    "measured_by",
    "measured_on",
    *LAYOUT_KEYS,
)
REQUIRED_SETUP = ("model", "active_params_b", "precision", "gpu_model", "measured_by")
MAX_ROWS = 1000
MAX_LINE_CHARS = 64 * 1024
MAX_TOKENS_PER_SECOND = 1e12  # a million GPUs at a million tokens/s each; larger is a typo


@dataclass(frozen=True)
class ScalingSetup:
    """The workload every row of the table ran, from the '# key: value' lines."""

    model: str
    active_params_b: float
    precision: str
    gpu_model: str
    dense_peak_tflops: float
    measured_by: str
    measured_on: dt.date | None
    layout: tuple[
        tuple[str, int], ...
    ] = ()  # the LAYOUT_KEYS the table records, as Evidence fields


@dataclass(frozen=True)
class ScalingPoint:
    line: int
    gpus: int
    tokens_per_second: float
    mfu: float
    efficiency: float  # measured, per GPU, relative to the smallest size
    fitted_efficiency: float


@dataclass(frozen=True)
class ScalingTable:
    source: str
    setup: ScalingSetup
    points: tuple[ScalingPoint, ...]
    fit: ScalingFit
    flags: tuple[NcclFlag, ...]

    def extrapolate(self, job_gpus: int) -> Extrapolation:
        return extrapolate(self.fit, job_gpus)

    def mfu_at(self, gpus: int) -> float:
        """MFU the fit predicts at `gpus` (same workload and GPU)."""
        s = self.setup
        return mfu_from_tokens(
            s.active_params_b, self.fit.tokens_per_second(gpus), gpus, s.dense_peak_tflops
        )


def _setup(meta: dict[str, tuple[int, str]], source: str) -> ScalingSetup:
    missing = [key for key in REQUIRED_SETUP if key not in meta]
    if missing:
        raise EvidenceParseError(
            source,
            None,
            f"missing '# {missing[0]}: ...' line before the table "
            f"(a scaling table needs {', '.join(REQUIRED_SETUP)})",
        )
    line, text = meta["active_params_b"]
    try:
        params = float(text)
    except ValueError:
        params = math.nan
    if not math.isfinite(params) or not 0 < params <= 100_000:
        raise EvidenceParseError(
            source, line, f"active_params_b must be billions of parameters, found {text[:40]!r}"
        )
    line, precision = meta["precision"]
    if precision.lower() not in ("bf16", "fp8"):
        raise EvidenceParseError(
            source, line, f"precision must be bf16 or fp8, found {precision[:40]!r}"
        )
    line, gpu_id = meta["gpu_model"]
    try:
        gpu = default_catalog().gpu(gpu_id)
    except InputError as exc:
        raise EvidenceParseError(source, line, f"gpu_model: {exc}") from None
    peak = gpu.dense_tflops(precision.lower())
    if peak is None:
        raise EvidenceParseError(source, line, f"{gpu.id} has no {precision} tensor cores")
    by_line, by = meta["measured_by"]
    on = meta.get("measured_on")
    return ScalingSetup(
        model=meta["model"][1][:200], active_params_b=params, precision=precision.lower(), gpu_model=gpu.id,
        dense_peak_tflops=peak, measured_by=parse_measured_by(by, source, by_line),
        measured_on=parse_measured_on(on[1], source, on[0]) if on else None,
        layout=tuple((key, int(_number(meta[key][1], source, meta[key][0], key, whole=True)))
                     for key in LAYOUT_KEYS if key in meta),
    )  # fmt: skip


def _number(text: str, source: str, line: int, what: str, *, whole: bool) -> float:
    try:
        value = int(text) if whole else float(text)
    except ValueError:
        raise EvidenceParseError(
            source, line, f"{what} is not a {'whole ' if whole else ''}number: {text[:40]!r}"
        ) from None
    upper = 1_000_000 if whole else MAX_TOKENS_PER_SECOND
    # Bounds before isfinite: a 400-digit whole number does not fit a float (OverflowError).
    if not 0 < value <= upper or not math.isfinite(value):
        raise EvidenceParseError(
            source, line, f"{what} must be above 0 and at most {upper:g}, found {text[:40]!r}"
        )
    return value


def parse_scaling_csv(text: str, source: str = "<csv>") -> ScalingTable:
    """'# key: value' setup lines, then a 'gpus,tokens_per_second' table; EvidenceParseError only."""
    meta: dict[str, tuple[int, str]] = {}
    rows: dict[int, tuple[int, float]] = {}
    header_line = None
    for lineno, line in enumerate(text.lstrip("\ufeff").split("\n"), start=1):
        if len(line) > MAX_LINE_CHARS:
            raise EvidenceParseError(
                source, lineno, f"line is {len(line)} characters long (limit {MAX_LINE_CHARS})"
            )
        body = line.strip()
        if not body:
            continue
        if body.startswith("#"):
            key, colon, value = body[1:].partition(":")
            if colon and key.strip().lower() in SETUP_KEYS and header_line is None:
                meta[key.strip().lower()] = (lineno, value.strip())
            continue
        cells = [cell.strip() for cell in body.split(",")]
        if header_line is None:
            if tuple(cell.lower() for cell in cells) != HEADER:
                raise EvidenceParseError(
                    source,
                    lineno,
                    f"expected the header 'gpus,tokens_per_second', found {body[:80]!r}",
                )
            header_line = lineno
            continue
        if len(cells) != 2:
            raise EvidenceParseError(
                source, lineno, f"expected 2 cells (gpus, tokens_per_second), found {len(cells)}"
            )
        gpus = int(_number(cells[0], source, lineno, "gpus", whole=True))
        if gpus in rows:
            raise EvidenceParseError(
                source,
                lineno,
                f"{gpus} GPUs already measured on line {rows[gpus][0]}: one row per size",
            )
        if len(rows) >= MAX_ROWS:
            raise EvidenceParseError(
                source, lineno, f"more than {MAX_ROWS} rows: not a scaling table"
            )
        rows[gpus] = (lineno, _number(cells[1], source, lineno, "tokens_per_second", whole=False))
    if header_line is None:
        raise EvidenceParseError(source, None, "no 'gpus,tokens_per_second' header line")
    if len(rows) < 2:
        raise EvidenceParseError(
            source,
            None,
            f"{len(rows)} size(s) measured: a scaling table needs two or more GPU counts",
        )
    return _evaluate(source, _setup(meta, source), rows)


def _evaluate(source: str, setup: ScalingSetup, rows: dict[int, tuple[int, float]]) -> ScalingTable:
    sizes = np.array(sorted(rows), dtype=float)
    tokens = np.array([rows[int(n)][1] for n in sizes])
    fit = fit_power_law(sizes, tokens)
    efficiency = measured_efficiency(sizes, tokens)
    flags: list[NcclFlag] = []
    points = []
    for n, t, eff in zip(sizes, tokens, efficiency, strict=True):
        line = rows[int(n)][0]
        mfu = mfu_from_tokens(setup.active_params_b, float(t), int(n), setup.dense_peak_tflops)
        if mfu > 1:
            raise EvidenceParseError(
                source,
                line,
                f"MFU works out at {mfu:.0%} of the dense peak, which is impossible: "
                "check active_params_b (billions) and that tokens_per_second is for the whole job",
            )
        if mfu < MIN_PLAUSIBLE_MFU:
            raise EvidenceParseError(
                source,
                line,
                f"MFU works out at {mfu:.2g} of the dense peak, far too low for a "
                "training run: check active_params_b (billions) and tokens_per_second",
            )
        if mfu > IMPLAUSIBLE_MFU:
            flags.append(
                NcclFlag(
                    code="mfu_implausible",
                    message=(
                        f"line {line}: MFU {mfu:.1%} at {int(n)} GPUs is above "
                        f"{IMPLAUSIBLE_MFU:.0%}"
                    ),
                )
            )
        points.append(ScalingPoint(line, int(n), float(t), mfu, float(eff), fit.efficiency(n)))
    if fit.exponent > SUPERLINEAR_EXPONENT:
        flags.append(
            NcclFlag(
                code="superlinear_scaling",
                message=(
                    f"throughput grows as N^{fit.exponent:.3f}, faster than linear: check that the "
                    "rows ran the same "
                    "workload and batch"
                ),
            )
        )
    return ScalingTable(source, setup, tuple(points), fit, tuple(flags))


def scaling_evidence(
    table: ScalingTable, *, artefact_sha256: str | None, artefact_name: str | None
) -> list[Evidence]:
    """TRAINING_MFU at every measured size, so calibration can take the one nearest the job."""
    s, fit = table.setup, table.fit
    grade = typed_summary_grade(s.measured_by)  # a typed table: a claim (issue 31)
    return [
        Evidence(
            kind=EvidenceKind.TRAINING_MFU, scale_gpus=p.gpus, value=p.mfu, unit=UNITS[EvidenceKind.TRAINING_MFU],
            description=(
                f"{s.model}, {s.active_params_b:g}B active, {s.precision} on {p.gpus} "
                f"{s.gpu_model}: "
                f"{p.tokens_per_second:,.0f} tokens/s, MFU {p.mfu:.2%} (6 x params x tokens/s over "
                f"{s.dense_peak_tflops:g} "
                f"TFLOP/s dense); scaling table of {fit.points} sizes, throughput ~ "
                f"N^{fit.exponent:.3f}, "
                f"RMS relative residual {fit.rms_relative_error:.1%}; {TYPED_SUMMARY_NOTE}"
            ),
            grade=grade, measured_by=s.measured_by, measured_on=s.measured_on,
            artefact_name=artefact_name, artefact_sha256=artefact_sha256,
            # The table's own context, which the fit to a bid checks (an A100 table cannot calibrate
            # an H100 bid); its MFU counts 6 x active parameters per token (mfu_from_tokens).
            gpu_model=s.gpu_model, precision=s.precision, model_active_params_billions=s.active_params_b,
            mfu_flops_basis="6n", **dict(s.layout),
        )
        for p in table.points
    ]  # fmt: skip
