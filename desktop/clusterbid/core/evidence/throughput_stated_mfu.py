"""A throughput row's stated MFU: checked against the one recomputed from tokens/s, or, with no
tokens/s, taken as stated and rescaled to the dense peak, each doubt a flag in words.

Apart from throughput.py (the row, its MFU and the refusals) because a stated figure's
denominator and FLOP count are their own set of rules, read by the evaluation of one row."""

from __future__ import annotations

from typing import TYPE_CHECKING

from clusterbid.core.evidence.nccl_result import NcclFlag

if TYPE_CHECKING:
    from clusterbid.core.evidence.throughput import ThroughputRow

# Two figures of one row that should agree (stated MFU vs tokens/s, tokens/s vs batch/step) may
# differ by rounding and by attention-FLOP conventions; beyond this they describe different runs.
AGREEMENT_TOLERANCE = 0.05


def check_stated_mfu(row: ThroughputRow, computed: float, flags: list[NcclFlag]) -> None:
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


def check_stated_basis(row: ThroughputRow, flags: list[NcclFlag]) -> None:
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


def mfu_as_stated(row: ThroughputRow, peak: float, flags: list[NcclFlag]) -> tuple[float, str]:
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
