"""Turn what a parser collected into an NcclTestsRun: collective, plateau and red flags."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from pydantic import ValidationError

from clusterbid.core.evidence.errors import EvidenceParseError
from clusterbid.core.evidence.nccl_result import (
    COLLECTIVES,
    ONE_GIB,
    BusbwPlateau,
    NcclFlag,
    NcclTestsRow,
    NcclTestsRun,
    busbw_factor,
    size_text,
)
from clusterbid.core.evidence.nccl_topology import TopologyCollector

# Bytes per element of nccl-tests' type names, to tell collectives apart by count vs size.
TYPE_BYTES: dict[str, int] = {
    "int8": 1, "uint8": 1, "char": 1, "f8e4m3": 1, "f8e5m2": 1,
    "half": 2, "bfloat16": 2,
    "int32": 4, "uint32": 4, "int": 4, "float": 4,
    "int64": 8, "uint64": 8, "double": 8,
}  # fmt: skip

# Result rows one file may hold. A sweep is tens of sizes (8 B to 16 GiB at -f 2 is 32); even a
# campaign of a hundred runs stays under this. Each row becomes a validated model, so a file of
# hundreds of thousands of rows cost gigabytes and most of a minute: it is refused at this row.
MAX_RESULT_ROWS = 4096

# Old versions print the max deviation; float sums legitimately differ by rounding, so only a
# deviation well above float noise is a red flag. (Our threshold; nccl-tests had no fixed one.)
MAX_ERROR_TOLERATED = 1e-3


@dataclass(frozen=True)
class NodeCount:
    """Nodes a run spanned as known from outside the log, and where that came from ("the bid ...")."""

    nodes: int
    basis: str
    gpus_per_node: int | None = None  # the bid's, to count GPUs when the log lists no ranks


@dataclass
class RawRun:
    """Mutable collector a parser fills while scanning; `finish_run` validates and judges it."""

    source: str
    output_format: str
    first_line: int | None = None
    program: str | None = None  # collective named by the command line / "# Collective test ..."
    version: str | None = None
    rank_hosts: dict[int, str] = field(default_factory=dict)
    rank_gpus: dict[int, str] = field(default_factory=dict)
    rows: list[NcclTestsRow] = field(default_factory=list)
    # Half of the last printed digit of (oop algbw, oop busbw, ip algbw, ip busbw) per row.
    resolutions: list[tuple[float, float, float, float]] = field(default_factory=list)
    avg_busbw: float | None = None
    out_of_bounds: int | None = None
    launch_nodes: int | None = None  # node count the mpirun/srun command line asked for
    given_nodes: NodeCount | None = None  # from the bid or the caller, when the log says nothing
    topology: TopologyCollector = field(default_factory=TopologyCollector)
    starred_lines: list[int] = field(default_factory=list)  # rows with an rccl-tests '*' on a check

    def is_empty(self) -> bool:
        return not self.rows and self.avg_busbw is None and self.out_of_bounds is None


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


def _where(rows: list[NcclTestsRow]) -> str:
    shown = ", ".join(
        f"{r.size_bytes} B" + (f" (line {r.line})" if r.line else "") for r in rows[:5]
    )
    return shown + (f" and {len(rows) - 5} more" if len(rows) > 5 else "")


def _formula_mismatches(raw: RawRun, collective: str, ranks: int) -> list[NcclTestsRow]:
    factor = busbw_factor(collective, ranks)
    if factor is None:
        return []
    bad = []
    for row, (oa, ob, ia, ib) in zip(raw.rows, raw.resolutions, strict=True):
        for half, res_a, res_b in ((row.out_of_place, oa, ob), (row.in_place, ia, ib)):
            # Both figures were rounded when printed: allow half a digit of each, plus float slack.
            slack = res_b + factor * res_a + 1e-9 * half.busbw_gb_s
            if abs(half.busbw_gb_s - half.algbw_gb_s * factor) > slack:
                bad.append(row)
                break
    return bad


def finish_run(
    raw: RawRun, collective_hint: str | None, nic_aggregate_gb_s: float | None
) -> NcclTestsRun:
    """Validate the collected pieces and attach the plateau and flags."""
    flags: list[NcclFlag] = []
    ranks = len(raw.rank_hosts) or None
    hosts = _distinct([raw.rank_hosts[r] for r in sorted(raw.rank_hosts)])
    gpus = _distinct([raw.rank_gpus[r] for r in sorted(raw.rank_gpus)])
    if len(gpus) > 1:
        flags.append(
            NcclFlag(
                code="mixed_gpu_models", message=f"ranks report different GPUs: {', '.join(gpus)}"
            )
        )
    if ranks is None:
        flags.append(
            NcclFlag(
                code="ranks_unknown",
                message="no '#  Rank N ... on HOST' lines: GPU count "
                "and hosts are unknown; attach the full output including the device list",
            )
        )

    collective, collective_from = _resolve_collective(raw, collective_hint, ranks, flags)
    types = _distinct([r.type for r in raw.rows])
    redops = _distinct([r.redop for r in raw.rows if r.redop is not None])
    if len(types) > 1:
        flags.append(
            NcclFlag(code="mixed_types", message=f"rows mix data types: {', '.join(types)}")
        )

    plateau = _plateau(raw.rows)
    _size_flags(raw, plateau, flags)
    _correctness_flags(raw, flags)
    if collective is not None and ranks is not None:
        bad = _formula_mismatches(raw, collective, ranks)
        if bad:
            flags.append(
                NcclFlag(
                    code="busbw_formula_mismatch",
                    message=(
                        f"busbw is not algbw x {busbw_factor(collective, ranks):.4g} "
                        f"({collective}, {ranks} ranks) "
                        f"within print rounding at {_where(bad)}: the log was edited or the rank "
                        "count is wrong"
                    ),
                )
            )
    if nic_aggregate_gb_s is not None:
        _nic_flag(raw, plateau, hosts, nic_aggregate_gb_s, flags)

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


def _size_flags(raw: RawRun, plateau: BusbwPlateau | None, flags: list[NcclFlag]) -> None:
    if not raw.rows:
        if raw.avg_busbw is not None:
            flags.append(
                NcclFlag(
                    code="avg_line_only",
                    message=(
                        "only the '# Avg bus bandwidth' summary, no per-size rows: that figure "
                        "averages every "
                        "size of the sweep and cannot be scored; ask for the full output"
                    ),
                )
            )
        return
    largest = max(r.size_bytes for r in raw.rows)
    if plateau is None or not plateau.saturated:
        flags.append(
            NcclFlag(
                code="sweep_below_1gib",
                message=(
                    f"sweep stops at {size_text(largest)}: bandwidth not saturated, a lower bound "
                    "(the plateau needs sizes of 1 GiB and more; scored with a wider "
                    "uncertainty); "
                    "ask for a run with -e 8G or more"
                ),
            )
        )
    if raw.out_of_bounds is None:
        flags.append(
            NcclFlag(
                code="missing_footer",
                message=(
                    "no '# Out of bounds values' line after the rows: the output may be truncated"
                ),
            )
        )


def _correctness_flags(raw: RawRun, flags: list[NcclFlag]) -> None:
    wrong = [r for r in raw.rows if (r.out_of_place.wrong or 0) > 0 or (r.in_place.wrong or 0) > 0]
    if wrong:
        flags.append(
            NcclFlag(code="wrong_nonzero", message=f"wrong results (#wrong > 0) at {_where(wrong)}")
        )
    off = [r for r in raw.rows if (r.out_of_place.max_error or 0) > MAX_ERROR_TOLERATED
           or (r.in_place.max_error or 0) > MAX_ERROR_TOLERATED]  # fmt: skip
    if off:
        flags.append(
            NcclFlag(
                code="error_above_tolerance",
                message=(
                    f"max error above {MAX_ERROR_TOLERATED:g} at {_where(off)}: results are wrong, "
                    "not just rounded"
                ),
            )
        )
    if raw.rows and all(
        r.out_of_place.wrong is None and r.out_of_place.max_error is None for r in raw.rows
    ):
        flags.append(
            NcclFlag(code="validation_off", message="results were not checked (#wrong is N/A)")
        )
    if raw.starred_lines:
        shown = ", ".join(str(n) for n in raw.starred_lines[:5])
        flags.append(
            NcclFlag(
                code="error_starred",
                message=(
                    "rccl-tests starred a check value as above its error threshold on line(s) "
                    f"{shown}: results are wrong"
                ),
            )
        )
    if raw.out_of_bounds:
        flags.append(
            NcclFlag(
                code="out_of_bounds",
                message=(
                    f"nccl-tests reports {raw.out_of_bounds} out-of-bounds values: the run failed "
                    "its checks"
                ),
            )
        )


def _nic_flag(
    raw: RawRun,
    plateau: BusbwPlateau | None,
    hosts: list[str],
    nic_gb_s: float,
    flags: list[NcclFlag],
) -> None:
    if not math.isfinite(nic_gb_s) or nic_gb_s <= 0:
        raise EvidenceParseError(
            raw.source, None, f"NIC aggregate must be a positive number of GB/s, not {nic_gb_s!r}"
        )
    # The log's own rank list first, then its launcher command line, then what the caller knows.
    if hosts:
        nodes, basis = len(hosts), "the log's rank list"
    elif raw.launch_nodes is not None:
        nodes, basis = raw.launch_nodes, "the log's command line"
    elif raw.given_nodes is not None:
        nodes, basis = raw.given_nodes.nodes, raw.given_nodes.basis
    else:
        nodes, basis = None, ""
    if nodes is None and raw.rows:
        flags.append(
            NcclFlag(
                code="nic_check_skipped",
                message=(
                    "the NIC-aggregate check needs the node count: the log has no rank list or "
                    "launcher line; "
                    "give it (--nodes) or attach the log to a bid"
                ),
            )
        )
    if nodes != 2 or not raw.rows:
        return  # the Tree/NVLS inflation this catches is a 2-node effect
    if plateau is not None:
        peak, size = plateau.busbw_gb_s, plateau.size_bytes
    else:
        peak, size = max((r.best_busbw()[0], r.size_bytes) for r in raw.rows)
    if peak > nic_gb_s:
        flags.append(
            NcclFlag(
                code="busbw_above_nic_aggregate",
                message=(
                    f"2-node busbw {peak:g} GB/s at {size_text(size)} exceeds the {nic_gb_s:g} "
                    "GB/s NIC aggregate per "
                    f"node (2 nodes, from {basis}): Tree or NVLS algorithms inflate busbw on 2 "
                    "nodes; "
                    "ask for a run with NCCL_ALGO=Ring"
                ),
            )
        )
