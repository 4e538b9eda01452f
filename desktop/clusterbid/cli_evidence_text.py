"""How `clusterbid evidence parse` and `attach` print a reading: each nccl-tests run with its
per-size curve, throughput rows, a scaling table with its fit, and the graded evidence items."""

from __future__ import annotations

from clusterbid.core.evidence.model import KIND_WORDS, MEASURED_BY_WORDS, figure_words, grade_words
from clusterbid.core.evidence.nccl_result import NcclTestsRun, size_text
from clusterbid.core.evidence.reading import EvidenceReading
from clusterbid.core.evidence.throughput_as_evidence import recipe_words

_size = size_text


def nccl_lines(reading: EvidenceReading) -> list[str]:
    lines = []
    for index, run in enumerate(reading.nccl_runs, start=reading.first_run_number):
        where = f" (line {run.first_line})" if run.first_line else ""
        setup = ", ".join(filter(None, [
            run.collective or "collective unknown",
            " ".join(filter(None, [run.data_type, run.redop])) or None,
            f"{run.ranks} ranks" if run.ranks else "ranks unknown",
            f"{len(run.hosts)} hosts ({', '.join(run.hosts)})" if run.hosts else None,
            run.gpu_model,
        ]))  # fmt: skip
        sizes = (
            f" from {_size(run.rows[0].size_bytes)} to {_size(run.rows[-1].size_bytes)}"
            if run.rows
            else ""
        )
        lines.append(f"Run {index}{where}: {setup}; {len(run.rows)} size rows{sizes}")
        if run.plateau is not None:
            lines.append(
                f"  busbw {'plateau' if run.plateau.saturated else 'lower bound'}: "
                f"{run.plateau.describe()}"
            )
        else:
            lines.append("  busbw plateau: none (no size row with busbw above 0)")
        if run.topology is not None:
            lines.append(
                f"  NCCL INFO ({run.topology.info_lines} lines): {run.topology.describe()}"
            )
        lines += _curve_lines(run)
        if run.avg_busbw_line_gb_s is not None:
            lines.append(
                f"  '# Avg bus bandwidth' line: {run.avg_busbw_line_gb_s:g} GB/s (a note only: it "
                "averages every size)"
            )
    return lines


def _curve_lines(run: NcclTestsRun) -> list[str]:
    """The per-size curve, always: a sweep that never saturates is judged by its shape."""
    titles = ("oop time us", "algbw", "busbw", "ip time us", "algbw", "busbw")
    lines = [
        "    "
        + f"{'size':>9}"
        + "".join(f" {t:>12}" if "time" in t else f" {t:>8}" for t in titles)
    ]
    for row in run.rows:
        o, i = row.out_of_place, row.in_place
        lines.append(
            f"    {_size(row.size_bytes):>9} {o.time_us:>12g} {o.algbw_gb_s:>8g} "
            f"{o.busbw_gb_s:>8g} "
            f"{i.time_us:>12g} {i.algbw_gb_s:>8g} {i.busbw_gb_s:>8g}"
        )
    return lines


def throughput_lines(reading: EvidenceReading) -> list[str]:
    assert reading.throughput is not None
    lines = [f"{len(reading.throughput.results)} row(s):"]
    for r in reading.throughput.results:
        row = r.row
        where = f"line {row.line}" if row.line else "row"
        tokens = f"{r.tokens_per_second:,.0f} tokens/s, " if r.tokens_per_second else ""
        lines.append(
            f"  {where}: {row.model} ({row.active_params_b:g}B active, {row.precision}, seq "
            f"{row.sequence_length}), "
            f"TP{row.tp} PP{row.pp}{f' CP{row.cp}' if row.cp > 1 else ''} DP{row.dp} on {row.gpus} "
            f"{row.gpu_model}{recipe_words(row)}: "
            f"{tokens}MFU {r.mfu:.2%} [{r.mfu_method}]"
        )
    return lines


def scaling_lines(reading: EvidenceReading, job_gpus: int | None) -> list[str]:
    table = reading.scaling
    assert table is not None
    s, fit = table.setup, table.fit
    lines = [
        f"{s.model} ({s.active_params_b:g}B active, {s.precision}) on {s.gpu_model}, {fit.points} "
        "sizes:",
        f"  {'GPUs':>8} {'tokens/s':>14} {'MFU':>7} {'efficiency':>11} {'fitted':>7}",
    ]
    for p in table.points:
        lines.append(
            f"  {p.gpus:>8,} {p.tokens_per_second:>14,.0f} {p.mfu:>7.2%} {p.efficiency:>11.1%} "
            f"{p.fitted_efficiency:>7.1%}"
        )
    lines.append(
        f"Fit: tokens/s = {fit.coefficient:.4g} x N^{fit.exponent:.4f}; RMS relative residual "
        f"{fit.rms_relative_error:.2%} "
        f"(efficiency relative to {fit.base_gpus} GPUs)"
    )
    if job_gpus is not None:
        ex = table.extrapolate(job_gpus)
        lines.append(
            f"At the job size, {job_gpus:,} GPUs: {ex.tokens_per_second:,.0f} tokens/s, efficiency "
            f"{ex.efficiency:.1%}, "
            f"MFU {table.mfu_at(job_gpus):.2%}"
        )
        if ex.warning:
            lines.append(f"  WARNING: {ex.warning}")
    return lines


def evidence_lines(reading: EvidenceReading) -> list[str]:
    lines = ["Evidence (the file is the raw artefact, sha256 " + reading.sha256[:16] + "...):"]
    for item in reading.evidence:
        date = item.measured_on.isoformat() if item.measured_on else "date not given"
        by = MEASURED_BY_WORDS.get(item.measured_by, item.measured_by)
        grade = grade_words(item.grade, item.measured_by)
        lines.append(
            f"  {KIND_WORDS[item.kind]} {figure_words(item.value, item.unit)} at "
            f"{item.scale_gpus:,} GPUs, from {by} ({date}): {grade}"
        )
    if not reading.evidence:
        lines.append("  none usable by the cost model")
    return lines
