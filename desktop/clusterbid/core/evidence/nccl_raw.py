"""What an nccl-tests parser collects while it reads (RawRun), before it is judged, and the facts
every reader shares: bytes per element of each type name, how many result rows one file may hold,
and the node count known from outside the log."""

from __future__ import annotations

from dataclasses import dataclass, field

from clusterbid.core.evidence.nccl_result import NcclTestsRow
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
