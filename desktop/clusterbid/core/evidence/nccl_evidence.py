"""Turn an all_reduce nccl-tests run into graded Evidence, and fingerprint the raw artefact."""

from __future__ import annotations

import datetime as dt
import hashlib

from pydantic import ValidationError

from clusterbid.core.errors import InputError
from clusterbid.core.evidence.model import UNITS, Evidence, EvidenceGrade, EvidenceKind
from clusterbid.core.evidence.nccl_result import NcclTestsRun

_DESCRIPTION_LIMIT = 2000  # Evidence.description max_length
# Flags that make the figure itself doubtful (not just its paperwork): the cost model keeps the
# spec figure unless the officer records a reason to use it (Evidence.suspect_override).
SUSPECT_FLAGS = ("busbw_above_nic_aggregate",)


def sha256_hex(data: bytes) -> str:
    """SHA-256 of the artefact exactly as received (before any decoding), lower-case hex."""
    return hashlib.sha256(data).hexdigest()


def to_evidence(
    run: NcclTestsRun,
    *,
    grade: EvidenceGrade,
    measured_by: str,
    artefact_sha256: str | None,
    artefact_name: str | None,
    measured_on: dt.date | None = None,
    scale_gpus: int | None = None,
) -> Evidence:
    """ALLREDUCE_BUSBW evidence from the run's >= 1 GiB plateau (never the Avg line); a sweep that
    stops below 1 GiB gives its largest size's busbw marked as a lower bound.

    `scale_gpus` is needed only when the log has no rank lines; it must agree with them otherwise.
    Raises InputError when the run cannot back an all_reduce busbw figure.
    """
    if run.collective != "all_reduce":
        raise InputError(
            f"{run.source}: busbw evidence needs an all_reduce run, this is "
            f"{run.collective or 'unknown'}"
        )
    if run.plateau is None:
        raise InputError(
            f"{run.source}: no size row with a busbw above 0, so there is no busbw figure to use"
        )
    if run.ranks is not None and scale_gpus is not None and scale_gpus != run.ranks:
        raise InputError(f"{run.source}: the log lists {run.ranks} ranks, not {scale_gpus} GPUs")
    gpus = run.ranks if run.ranks is not None else scale_gpus
    if gpus is None:
        raise InputError(
            f"{run.source}: the log has no '#  Rank' lines; say how many GPUs it ran on"
        )
    plateau = run.plateau
    hosts = f" on {len(run.hosts)} hosts" if run.hosts else ""
    flags = "; ".join(f"{flag.code}: {flag.message}" for flag in run.flags)
    suspect = "; ".join(flag.message for flag in run.flags if flag.code in SUSPECT_FLAGS) or None
    what = "plateau" if plateau.saturated else "lower bound"
    description = (
        f"nccl-tests all_reduce busbw {what} {plateau.describe()}, {gpus} GPUs{hosts}"
        + (f", {run.gpu_model}" if run.gpu_model else "")
        + (f". NCCL INFO: {run.topology.describe()}" if run.topology is not None else "")
        + (
            f". Avg bus bandwidth line {run.avg_busbw_line_gb_s:g} GB/s (not used)"
            if run.avg_busbw_line_gb_s
            else ""
        )
        + (f". Flags: {flags}" if flags else "")
    )
    try:
        return Evidence(
            kind=EvidenceKind.ALLREDUCE_BUSBW,
            description=description[:_DESCRIPTION_LIMIT],
            scale_gpus=gpus,
            value=plateau.busbw_gb_s,
            unit=UNITS[EvidenceKind.ALLREDUCE_BUSBW],
            grade=grade,
            measured_by=measured_by,
            measured_on=measured_on,
            artefact_name=artefact_name,
            artefact_sha256=artefact_sha256,
            suspect=suspect[:1000] if suspect else None,
            lower_bound=None if plateau.saturated else plateau.describe()[:500],
        )
    except ValidationError as exc:
        raise InputError(f"{run.source}: {exc.errors()[0]['msg']}") from None
