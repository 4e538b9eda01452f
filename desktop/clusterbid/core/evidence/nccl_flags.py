"""The red flags of one nccl-tests run: busbw that is not algbw times the collective's factor, a
sweep that stops below saturation or lacks its footer, wrong or unchecked results, and 2-node
busbw above the NIC aggregate (Tree/NVLS inflation). Each appends NcclFlag items, in words."""

from __future__ import annotations

import math

from clusterbid.core.evidence.errors import EvidenceParseError
from clusterbid.core.evidence.nccl_raw import RawRun
from clusterbid.core.evidence.nccl_result import (
    BusbwPlateau,
    NcclFlag,
    NcclTestsRow,
    busbw_factor,
    size_text,
)

# Old versions print the max deviation; float sums legitimately differ by rounding, so only a
# deviation well above float noise is a red flag. (Our threshold; nccl-tests had no fixed one.)
MAX_ERROR_TOLERATED = 1e-3


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


def rank_flags(gpus: list[str], ranks: int | None, flags: list[NcclFlag]) -> None:
    """Ranks on different GPU models, or no rank lines at all (GPU count and hosts unknown)."""
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


def formula_flag(raw: RawRun, collective: str, ranks: int, flags: list[NcclFlag]) -> None:
    """Busbw that is not algbw x the factor within print rounding: edited, or ranks wrong."""
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


def size_flags(raw: RawRun, plateau: BusbwPlateau | None, flags: list[NcclFlag]) -> None:
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


def correctness_flags(raw: RawRun, flags: list[NcclFlag]) -> None:
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


def nic_flag(
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
