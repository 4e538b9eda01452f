"""From nccl-tests runs to graded evidence: which runs are scored (all_reduce with a busbw figure
and a GPU count), a GPU count from the officer's nodes when the log lists no ranks, the bid's
fabric claim held against the log's NCCL INFO lines, and one run chosen from several."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from clusterbid.core.evidence.errors import EvidenceParseError
from clusterbid.core.evidence.evidence_file import EvidenceFormat
from clusterbid.core.evidence.nccl_evidence import to_evidence
from clusterbid.core.evidence.nccl_raw import NodeCount
from clusterbid.core.evidence.nccl_result import NcclFlag, NcclTestsRun
from clusterbid.core.evidence.nccl_topology import topology_flags
from clusterbid.core.evidence.provenance import grade_for
from clusterbid.core.evidence.reading_result import EvidenceReading


@dataclass(frozen=True)
class FabricClaim:
    """What the bid says about its fabric, to hold the log's NCCL INFO lines against."""

    technology: str  # catalog id, e.g. IB-NDR400
    rdma: bool  # the catalog's fabric is RDMA (InfiniBand, RoCE, EFA)
    gpudirect_rdma: bool  # the bid claims GPUDirect RDMA


def fabric_claim_of(technology: str, gpudirect_rdma: bool) -> FabricClaim:
    """The claim for a catalog fabric id; an unknown id is refused with the catalog's message."""
    from clusterbid.core.catalog import default_catalog

    spec = default_catalog().fabric(technology)  # InputError naming the catalog's fabrics
    return FabricClaim(technology, spec.rdma, gpudirect_rdma and spec.rdma)


def against_fabric(run: NcclTestsRun, fabric: FabricClaim) -> NcclTestsRun:
    extra = topology_flags(run.topology, fabric.technology, fabric.rdma, fabric.gpudirect_rdma)
    return run.model_copy(update={"flags": run.flags + tuple(extra)}) if extra else run


def _not_scored(run: NcclTestsRun, nodes: NodeCount | None = None) -> str | None:
    """Why a run gives no busbw evidence, or None when it does."""
    if run.collective != "all_reduce":
        return (
            f"{run.collective or 'unknown collective'} is shown but not scored (the cost model "
            "uses all_reduce busbw)"
        )
    if run.plateau is None:
        return "no busbw figure to score (no busbw above 0)"
    from_nodes = any(flag.code == "ranks_from_nodes" for flag in run.flags)  # scaled already
    if run.ranks is None and not from_nodes and (nodes is None or nodes.gpus_per_node is None):
        return (
            "no busbw figure to score (rank count unknown: give the nodes it ran on, --nodes, "
            "when attaching it to a bid, whose GPUs per node make the GPU count)"
        )
    return None


def _scale_from_nodes(
    run: NcclTestsRun, nodes: NodeCount | None
) -> tuple[NcclTestsRun, int | None]:
    """A log without rank lines: its GPU count from the officer's node count, flagged as such."""
    if run.ranks is not None or nodes is None or nodes.gpus_per_node is None:
        return run, None
    gpus = nodes.nodes * nodes.gpus_per_node
    flag = NcclFlag(
        code="ranks_from_nodes",
        message=(
            f"GPU count {gpus} = {nodes.nodes} nodes ({nodes.basis}) x {nodes.gpus_per_node} GPUs "
            "per node "
            "(the bid's): not read from the log, which lists no ranks"
        ),
    )
    return run.model_copy(update={"flags": run.flags + (flag,)}), gpus


def nccl_reading(
    source: str,
    fmt: EvidenceFormat,
    sha: str,
    name: str,
    runs: tuple[NcclTestsRun, ...],
    measured_by: str,
    measured_on: dt.date | None,
    nodes: NodeCount | None = None,
) -> EvidenceReading:
    grade = grade_for(measured_by, sha)
    items, notes, kept = [], [], []
    for index, run in enumerate(runs, start=1):
        label = f"run {index}" + (f" (line {run.first_line})" if run.first_line else "")
        why_not = _not_scored(run, nodes)
        if why_not is not None:
            notes.append(f"{label}: {why_not}")
        else:
            run, gpus = _scale_from_nodes(run, nodes)
            items.append(
                to_evidence(
                    run,
                    grade=grade,
                    measured_by=measured_by,
                    artefact_sha256=sha,
                    artefact_name=name,
                    measured_on=measured_on,
                    scale_gpus=gpus,
                )
            )
        kept.append(run)
    return EvidenceReading(
        source, fmt, sha, nccl_runs=tuple(kept), evidence=tuple(items), notes=tuple(notes)
    )


def scored_runs(reading: EvidenceReading) -> list[NcclTestsRun]:
    """The nccl-tests runs that gave the reading's evidence items, in the same order."""
    return [run for run in reading.nccl_runs if _not_scored(run) is None]


def select_run(reading: EvidenceReading, number: int) -> EvidenceReading:
    """Only run `number` (1-based, file order) of a file with several nccl-tests runs."""
    runs = reading.nccl_runs
    if not runs:
        raise EvidenceParseError(reading.source, None, "--run applies to nccl-tests logs only")
    if not 1 <= number <= len(runs):
        raise EvidenceParseError(
            reading.source, None, f"run {number} asked for, the file holds {len(runs)} run(s)"
        )
    # Evidence items follow the scorable runs in file order: find the chosen run's item, if any.
    scorable = [i for i, run in enumerate(runs) if _not_scored(run) is None]
    index = number - 1
    items = (reading.evidence[scorable.index(index)],) if index in scorable else ()
    label = f"run {number}" + (
        f" (line {runs[index].first_line})" if runs[index].first_line else ""
    )
    # The chosen run's own notes, and what the parser set aside (which concerns the whole file).
    notes = tuple(n for n in reading.notes if n.startswith(label + ":") or not n.startswith("run "))
    return EvidenceReading(
        reading.source,
        reading.format,
        reading.sha256,
        nccl_runs=(runs[index],),
        evidence=items,
        notes=notes,
        first_run_number=number,
    )
