"""What a parsed nccl-tests run holds: rows per message size, the busbw plateau and red flags."""

from __future__ import annotations

import re
from typing import Literal

from pydantic import Field

from clusterbid.core.base import FrozenModel

ONE_GIB = 2**30

# Collectives nccl-tests ships a *_perf binary for, with how busbw is derived from algbw for
# n ranks (nccl-tests' own factors), so the parser can check the printed busbw.
BUSBW_FACTORS: dict[str, str] = {
    "all_reduce": "2(n-1)/n",
    "all_gather": "(n-1)/n",
    "reduce_scatter": "(n-1)/n",
    "alltoall": "(n-1)/n",
    "broadcast": "1",
    "reduce": "1",
    "sendrecv": "1",
}
COLLECTIVES: tuple[str, ...] = (*BUSBW_FACTORS, "gather", "scatter", "hypercube")
# The test binary's name (all_reduce_perf ...) in a command line or JSON args.
PROGRAM_NAME = re.compile(r"\b(" + "|".join(COLLECTIVES) + r")_perf\b")


def busbw_factor(collective: str, ranks: int) -> float | None:
    """busbw / algbw for this collective at n ranks, or None when nccl-tests' factor is unknown."""
    n = ranks
    if collective == "all_reduce":
        return 2 * (n - 1) / n
    if collective in ("all_gather", "reduce_scatter", "alltoall"):
        return (n - 1) / n
    if collective in ("broadcast", "reduce", "sendrecv"):
        return 1.0
    return None


class NcclTestsResult(FrozenModel):
    """One half of a row: the out-of-place or the in-place timing."""

    time_us: float = Field(ge=0)
    algbw_gb_s: float = Field(ge=0)
    busbw_gb_s: float = Field(ge=0)
    # `#wrong` count; None when printed N/A (checking off) or in old versions without it.
    wrong: int | None = Field(None, ge=0)
    # Versions before mid-2022 print the max deviation (a float) in an `error` column instead.
    max_error: float | None = Field(None, ge=0)


class NcclTestsRow(FrozenModel):
    """One message size of the sweep."""

    line: int | None = Field(None, ge=1, description="1-based line in the source (text output)")
    size_bytes: int = Field(ge=0)
    count: int = Field(ge=0)
    type: str
    redop: str | None = None
    root: int | None = Field(None, ge=0, description="None when the collective has no root (-1)")
    out_of_place: NcclTestsResult
    in_place: NcclTestsResult

    def best_busbw(self) -> tuple[float, Literal["out_of_place", "in_place"]]:
        """The better of in-place and out-of-place busbw, with which one it was."""
        if self.in_place.busbw_gb_s > self.out_of_place.busbw_gb_s:
            return self.in_place.busbw_gb_s, "in_place"
        return self.out_of_place.busbw_gb_s, "out_of_place"


class BusbwPlateau(FrozenModel):
    """The large-message busbw: max over sizes >= 1 GiB, better of in-place/out-of-place.

    A sweep that stops below 1 GiB never reaches the plateau: the figure is then the busbw at the
    largest size measured, `saturated` is False, and it is a lower bound (bandwidth still rising).
    """

    busbw_gb_s: float = Field(ge=0)
    size_bytes: int = Field(ge=0)
    placement: Literal["out_of_place", "in_place"]
    saturated: bool = True

    def describe(self) -> str:
        """'338.82 GB/s at 8 GiB (out-of-place)', with the lower-bound caveat when unsaturated."""
        text = (
            f"{self.busbw_gb_s:g} GB/s at {size_text(self.size_bytes)} "
            f"({self.placement.replace('_', '-')})"
        )
        if self.saturated:
            return text
        return (
            f"{text}: sweep stops at {size_text(self.size_bytes)}, bandwidth not saturated, a "
            "lower bound"
        )


def size_text(n: int) -> str:
    """Bytes as nccl-tests' -e option reads them: 128 MiB, 8 GiB; odd sizes in bytes."""
    for unit, scale in (("GiB", 2**30), ("MiB", 2**20), ("KiB", 2**10)):
        if n >= scale and n % scale == 0:
            return f"{n // scale} {unit}"
    return f"{n} B"


class NcclTopology(FrozenModel):
    """What NCCL said about the run's transport; None where the log does not say."""

    network: str | None = None  # IB, RoCE, Socket, AWS Libfabric, GPUDirectTCPX, ...
    gpudirect_rdma: bool | None = None
    coll_channels: int | None = None
    nvls: bool | None = None
    collnet: bool | None = None
    info_lines: int = 0  # NCCL INFO lines read

    def describe(self) -> str:
        parts = [f"network {self.network}" if self.network else None,
                 None if self.gpudirect_rdma is None else f"GPUDirect RDMA {'on' if self.gpudirect_rdma else 'off'}",
                 f"{self.coll_channels} coll channels" if self.coll_channels else None,
                 None if self.nvls is None else f"NVLS {'available' if self.nvls else 'not available'}",
                 None if self.collnet is None else f"CollNet {'on' if self.collnet else 'off'}"]  # fmt: skip
        return ", ".join(p for p in parts if p) or "no topology facts"


class NcclFlag(FrozenModel):
    """A red flag about a run; `code` is stable for the GUI and scoring, `message` is for people."""

    code: str
    message: str


class NcclTestsRun(FrozenModel):
    """One nccl-tests invocation: its setup, its rows and what the buyer should worry about."""

    source: str
    first_line: int | None = Field(
        None, ge=1, description="Line where this run starts (text output)"
    )
    output_format: Literal["text", "json"]
    collective: str | None = None
    collective_from: Literal["hint", "command", "columns"] | None = None
    data_type: str | None = None
    redop: str | None = None
    ranks: int | None = Field(None, ge=1, description="Ranks listed in the '#  Rank N ...' lines")
    hosts: tuple[str, ...] = ()
    gpu_model: str | None = None
    nccl_tests_version: str | None = None
    rows: tuple[NcclTestsRow, ...] = ()
    plateau: BusbwPlateau | None = None
    # Kept only as a note: it averages every size of the sweep, so it is never scored.
    avg_busbw_line_gb_s: float | None = Field(None, ge=0)
    out_of_bounds: int | None = Field(None, ge=0)
    flags: tuple[NcclFlag, ...] = ()
    topology: NcclTopology | None = Field(
        None, description="Facts from NCCL_DEBUG=INFO lines, if the log has them"
    )

    def flag_codes(self) -> tuple[str, ...]:
        return tuple(flag.code for flag in self.flags)
