"""Read a dropped nccl-tests log and say in plain words what was found in it."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from clusterbid.core.errors import InputError

if TYPE_CHECKING:
    from clusterbid.core.evidence.nccl_result import NcclTestsRun


def read_log(path: Path) -> list[NcclTestsRun]:
    from clusterbid.core.evidence import (
        EvidenceParseError,
        load_evidence_bytes,
        parse_nccl_tests_text,
    )

    # The same reader and size limit as `clusterbid evidence` and the wizard's evidence page.
    text = load_evidence_bytes(path, path.name).decode("utf-8", errors="replace")
    try:
        return parse_nccl_tests_text(text, path.name)
    except EvidenceParseError as exc:
        raise InputError(str(exc)) from None


def summarise_runs(runs: list[NcclTestsRun]) -> str:
    lines: list[str] = []
    for run in runs:
        where = f"line {run.first_line}" if run.first_line else run.source
        head = f"{run.collective or 'unknown collective'} ({where}): {len(run.rows)} message sizes"
        if run.ranks:
            head += f", {run.ranks} ranks"
        if run.hosts:
            head += f" on {len(run.hosts)} hosts"
        lines.append(head)
        if run.plateau is not None:
            what = "plateau" if run.plateau.saturated else "lower bound"
            lines.append(f"  bus bandwidth {what} {run.plateau.describe()}")
        else:
            lines.append("  no bus bandwidth figure: no size row above 0 GB/s")
        if run.topology is not None:
            lines.append(f"  NCCL INFO: {run.topology.describe()}")
        lines.extend(f"  flag {flag.code}: {flag.message}" for flag in run.flags)
    return "\n".join(lines)


def chart_run(runs: list[NcclTestsRun]) -> NcclTestsRun | None:
    """The run the busbw chart shows: the first all_reduce, else the first run."""
    return next((run for run in runs if run.collective == "all_reduce"), runs[0] if runs else None)
