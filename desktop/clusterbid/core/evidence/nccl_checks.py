"""Turn what a parser collected into an NcclTestsRun: its collective, its busbw plateau and its
red flags (nccl_flags.py); RawRun, the collector, is nccl_raw.py's."""

from __future__ import annotations

from pydantic import ValidationError

from clusterbid.core.evidence.errors import EvidenceParseError
from clusterbid.core.evidence.nccl_flags import (
    correctness_flags,
    formula_flag,
    nic_flag,
    rank_flags,
    size_flags,
)
from clusterbid.core.evidence.nccl_raw import TYPE_BYTES, RawRun
from clusterbid.core.evidence.nccl_result import (
    COLLECTIVES,
    ONE_GIB,
    BusbwPlateau,
    NcclFlag,
    NcclTestsRow,
    NcclTestsRun,
)


def _distinct(values: list[str]) -> list[str]:
    return list(dict.fromkeys(values))


def _collective_from_columns(rows: list[NcclTestsRow], ranks: int | None) -> str | None:
    """Guess from redop/root and count vs size; None where nccl-tests' output is ambiguous."""
    usable = [r for r in rows if r.count > 0 and r.type in TYPE_BYTES]
    if not usable:
        return None
    row = max(usable, key=lambda r: r.size_bytes)
    has_op = row.redop not in (None, "none")
    if row.root is not None:
        return "reduce" if has_op else "broadcast"
    per_rank = row.size_bytes > row.count * TYPE_BYTES[row.type]  # count is per rank: split/gather
    if has_op:
        return "reduce_scatter" if per_rank else "all_reduce"
    if not per_rank:
        return "sendrecv"
    return None  # all_gather and alltoall print identical columns


def _plateau(rows: list[NcclTestsRow]) -> BusbwPlateau | None:
    best: BusbwPlateau | None = None
    for row in rows:
        if row.size_bytes < ONE_GIB:
            continue
        busbw, placement = row.best_busbw()
        if best is None or busbw > best.busbw_gb_s:
            best = BusbwPlateau(busbw_gb_s=busbw, size_bytes=row.size_bytes, placement=placement)
    if best is None and rows:
        # Below 1 GiB busbw is still climbing (latency and protocol overheads): the largest size
        # measured is the best figure the log can give, and only a lower bound of the plateau.
        largest = max(rows, key=lambda r: r.size_bytes)
        busbw, placement = largest.best_busbw()
        if busbw > 0:
            best = BusbwPlateau(
                busbw_gb_s=busbw,
                size_bytes=largest.size_bytes,
                placement=placement,
                saturated=False,
            )
    return best


def finish_run(
    raw: RawRun, collective_hint: str | None, nic_aggregate_gb_s: float | None
) -> NcclTestsRun:
    """Validate the collected pieces and attach the plateau and flags."""
    flags: list[NcclFlag] = []
    ranks = len(raw.rank_hosts) or None
    hosts = _distinct([raw.rank_hosts[r] for r in sorted(raw.rank_hosts)])
    gpus = _distinct([raw.rank_gpus[r] for r in sorted(raw.rank_gpus)])
    rank_flags(gpus, ranks, flags)

    collective, collective_from = _resolve_collective(raw, collective_hint, ranks, flags)
    types = _distinct([r.type for r in raw.rows])
    redops = _distinct([r.redop for r in raw.rows if r.redop is not None])
    if len(types) > 1:
        flags.append(
            NcclFlag(code="mixed_types", message=f"rows mix data types: {', '.join(types)}")
        )

    plateau = _plateau(raw.rows)
    size_flags(raw, plateau, flags)
    correctness_flags(raw, flags)
    if collective is not None and ranks is not None:
        formula_flag(raw, collective, ranks, flags)
    if nic_aggregate_gb_s is not None:
        nic_flag(raw, plateau, hosts, nic_aggregate_gb_s, flags)

    try:
        return NcclTestsRun(
            source=raw.source, first_line=raw.first_line, output_format=raw.output_format,
            collective=collective, collective_from=collective_from,
            data_type=types[0] if len(types) == 1 else None,
            redop=redops[0] if len(redops) == 1 else None,
            ranks=ranks, hosts=tuple(hosts), gpu_model=" / ".join(gpus) if gpus else None,
            nccl_tests_version=raw.version, rows=tuple(raw.rows), plateau=plateau,
            avg_busbw_line_gb_s=raw.avg_busbw, out_of_bounds=raw.out_of_bounds, flags=tuple(flags),
            topology=raw.topology.result(),
        )  # fmt: skip
    except ValidationError as exc:
        raise EvidenceParseError(
            raw.source, raw.first_line, f"run not usable: {exc.errors()[0]['msg']}"
        ) from None


def _resolve_collective(
    raw: RawRun, hint: str | None, ranks: int | None, flags: list[NcclFlag]
) -> tuple[str | None, str | None]:
    if hint is not None and hint not in COLLECTIVES:
        raise EvidenceParseError(
            raw.source,
            None,
            f"unknown collective {hint!r}; expected one of {', '.join(COLLECTIVES)}",
        )
    if hint is not None and raw.program is not None and hint != raw.program:
        flags.append(
            NcclFlag(
                code="collective_mismatch",
                message=(
                    f"the caller says {hint} but the command line ran {raw.program}_perf; using "
                    f"{hint}"
                ),
            )
        )
    if hint is not None:
        return hint, "hint"
    if raw.program is not None:
        return raw.program, "command"
    guessed = _collective_from_columns(raw.rows, ranks)
    if guessed is not None:
        return guessed, "columns"
    if raw.rows:
        flags.append(
            NcclFlag(
                code="collective_unknown",
                message=(
                    "no *_perf command line and the columns fit several collectives (e.g. "
                    "all_gather and "
                    "alltoall): say which test this is"
                ),
            )
        )
    return None, None
