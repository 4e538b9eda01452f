"""Read any evidence artefact: detect its format by content, parse it, grade it, say what was read."""

from __future__ import annotations

import datetime as dt
import json
import os
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

from clusterbid.core.evidence.errors import EvidenceParseError
from clusterbid.core.evidence.formats import format_names, format_spec
from clusterbid.core.evidence.model import Evidence
from clusterbid.core.evidence.nccl_columns import Skipped
from clusterbid.core.evidence.nccl_evidence import sha256_hex, to_evidence
from clusterbid.core.evidence.nccl_json import parse_nccl_tests_json
from clusterbid.core.evidence.nccl_result import NcclFlag, NcclTestsRun
from clusterbid.core.evidence.nccl_text import NodeCount, read_nccl_tests_text
from clusterbid.core.evidence.nccl_topology import topology_flags
from clusterbid.core.evidence.provenance import MEASURERS, grade_for
from clusterbid.core.evidence.scaling import HEADER as SCALING_HEADER
from clusterbid.core.evidence.scaling import ScalingTable, parse_scaling_csv, scaling_evidence
from clusterbid.core.evidence.throughput import ThroughputResult, throughput_evidence
from clusterbid.core.evidence.throughput_readers import (
    ThroughputTable,
    parse_throughput_csv,
    parse_throughput_json,
)
from clusterbid.core.evidence.training_log import (
    TrainingLog,
    looks_like_training_log,
    parse_training_log,
    training_log_evidence,
)
from clusterbid.core.safe_read import open_regular

# The formats are declared once, in formats.py; "auto" detects one by content.
EvidenceFormat = str
FORMATS: tuple[str, ...] = ("auto", *format_names())
# Evidence files are logs and small tables, matched to the real ones, and refused above it before
# a byte is parsed: any file accepted is parsed in well under a second and 100 MB. An nccl-tests
# log is tens of KB (tests/data/nccl-tests); with NCCL_DEBUG=INFO about 150 lines per GPU, some
# 15 MB at 1,024 GPUs. The document store keeps artefacts up to 50 MiB (store.artefacts; not
# imported: the store imports evidence), so every file accepted here can be attached.
MAX_EVIDENCE_BYTES = 16 * 1024 * 1024
# Throughput and scaling tables and nccl-tests -J output are a few rows of a few hundred bytes;
# parsed as a whole (JSON into objects), they are held to less.
MAX_TABLE_BYTES = 2 * 1024 * 1024


@dataclass(frozen=True)
class EvidenceReading:
    """What one file held: its format, fingerprint, parsed content, graded Evidence and flags."""

    source: str
    format: EvidenceFormat
    sha256: str
    nccl_runs: tuple[NcclTestsRun, ...] = ()
    throughput: ThroughputTable | None = None
    scaling: ScalingTable | None = None
    training_log: TrainingLog | None = None
    evidence: tuple[Evidence, ...] = ()
    notes: tuple[str, ...] = field(default=())
    first_run_number: int = 1  # `--run N` keeps one run: it is still called run N

    def flags(self) -> tuple[NcclFlag, ...]:
        """Every red flag of the file, whichever format it was."""
        found: list[NcclFlag] = []
        for run in self.nccl_runs:
            found += run.flags
        if self.throughput is not None:
            for result in self.throughput.results:
                where = f"line {result.row.line}: " if result.row.line else ""
                found += [NcclFlag(code=f.code, message=where + f.message) for f in result.flags]
        if self.scaling is not None:
            found += self.scaling.flags
        if self.training_log is not None:
            found += self.training_log.flags
        return tuple(found)


def load_evidence_bytes(path: Path, source: str | None = None) -> bytes:
    """The one way CLI, wizard and drag-and-drop read an evidence file: size checked first.

    The size is checked on the open file, and at most one byte over the limit is read, so a huge
    or growing file (or a device) costs neither time nor memory before it is refused.
    """
    name = source or str(path)
    limit = f"the {MAX_EVIDENCE_BYTES // 2**20} MiB limit for an evidence file"
    try:
        with open_regular(path) as handle:  # devices and FIFOs refused before any read
            size = os.fstat(handle.fileno()).st_size
            if size > MAX_EVIDENCE_BYTES:
                raise EvidenceParseError(
                    name,
                    None,
                    f"{size / 2**20:.0f} MiB is larger than {limit}; "
                    "attach the nccl-tests output of the run itself, not a collection",
                )
            data = handle.read(MAX_EVIDENCE_BYTES + 1)
    except OSError as exc:
        raise EvidenceParseError(name, None, f"cannot be read ({exc.strerror or exc})") from None
    if len(data) > MAX_EVIDENCE_BYTES:
        raise EvidenceParseError(name, None, f"more than {limit}")
    return data


def _decode(data: bytes, source: str) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise EvidenceParseError(
            source, line, f"not UTF-8 text (byte {exc.start}): is this a binary file?"
        ) from None


def _first_content_line(text: str) -> str:
    # From the head only: splitting the whole text at 200 lines copied the rest of it.
    for line in text[:100_000].lstrip("\ufeff").split("\n", 200)[:200]:
        if line.strip() and not line.lstrip().startswith("#"):
            return line.strip().lower()
    return ""


def detect_format(text: str) -> EvidenceFormat:
    """By content, not name: JSON by its keys, CSV by its header, anything else as nccl-tests text."""
    head = text[:100_000].lstrip("\ufeff \t\r\n")
    if head.startswith("{"):
        # nccl-tests -J files carry "results"; ours carry "rows". Checked on the raw text so a
        # broken JSON file still goes to the parser that can say where it breaks.
        return (
            "throughput-json"
            if '"rows"' in text[:100_000] and '"results"' not in text[:100_000]
            else "nccl-json"
        )
    first = _first_content_line(text)
    cells = tuple(cell.strip() for cell in first.split(","))
    if cells == SCALING_HEADER:
        return "scaling-csv"
    # A header naming any of our columns; nccl-tests lines never hold two commas and these words.
    if len(cells) > 2 and {"model", "active_params_b", "gpus", "tokens_per_second"} & set(cells):
        return "throughput-csv"
    return "training-log" if looks_like_training_log(text) else "nccl-text"


def media_type_of(data: bytes) -> str:
    """The media type an evidence file is kept under: its format's (formats.py), by content."""
    return format_spec(detect_format(data[:100_000].decode("utf-8", errors="replace"))).media_type


def read_evidence(
    data: bytes,
    source: str,
    *,
    fmt: str = "auto",
    measured_by: str | None = None,
    measured_on: dt.date | None = None,
    nic_aggregate_gb_s: float | None = None,
    artefact_name: str | None = None,
    fabric: FabricClaim | None = None,
    nodes: NodeCount | None = None,
) -> EvidenceReading:
    """Parse one artefact into graded Evidence; raises EvidenceParseError (an InputError) only.

    The file itself is the raw artefact: its SHA-256 is kept on every item. `measured_by`
    supplies who ran an nccl-tests log (default: provider, the weaker reading); for throughput and
    scaling files, who measured is in the file, and a different `measured_by` is refused.
    """
    if fmt != "auto" and fmt not in format_names():
        raise EvidenceParseError(
            source, None, f"unknown format {fmt!r}; one of auto, {', '.join(format_names())}"
        )
    if measured_by is not None and measured_by not in MEASURERS:
        raise EvidenceParseError(
            source, None, f"measured_by must be one of {', '.join(MEASURERS)}, not {measured_by!r}"
        )
    if measured_on is not None and measured_on > dt.date.today():
        raise EvidenceParseError(
            source, None, f"measured_on {measured_on.isoformat()} is in the future"
        )
    if len(data) > MAX_EVIDENCE_BYTES:
        raise EvidenceParseError(
            source,
            None,
            f"{len(data) / 2**20:.0f} MiB is larger than the "
            f"{MAX_EVIDENCE_BYTES // 2**20} MiB limit for an evidence file",
        )
    text = _decode(data, source)
    chosen = detect_format(text) if fmt == "auto" else fmt
    if format_spec(chosen).held_small and len(data) > MAX_TABLE_BYTES:
        raise EvidenceParseError(
            source,
            None,
            f"{len(data) / 2**20:.1f} MiB is larger than the "
            f"{MAX_TABLE_BYTES // 2**20} MiB limit for a {chosen} file (real ones are a few KB): "
            "attach the table of this measurement alone",
        )
    sha = sha256_hex(data)
    name = artefact_name or source.replace("\\", "/").rsplit("/", 1)[-1][:255]
    request = _Request(
        source, sha, name, measured_by, measured_on, nic_aggregate_gb_s, fabric, nodes
    )
    reader = READERS.get(chosen)
    if reader is None:  # declared in formats.py, its reader not yet in READERS
        raise EvidenceParseError(source, None, f"no reader for the {chosen} format yet")
    return reader(text, chosen, request)


@dataclass(frozen=True)
class _Request:
    """One file to read and what the officer knows of it (read_evidence's arguments)."""

    source: str
    sha: str
    name: str  # the artefact's name
    measured_by: str | None
    measured_on: dt.date | None
    nic_aggregate_gb_s: float | None
    fabric: FabricClaim | None
    nodes: NodeCount | None


def _read_nccl_text(text: str, chosen: str, r: _Request) -> EvidenceReading:
    found, skipped = read_nccl_tests_text(
        text, r.source, nic_aggregate_gb_s=r.nic_aggregate_gb_s, nodes=r.nodes
    )
    return _nccl_runs_read(tuple(found), skipped, chosen, r)


def _read_nccl_json(text: str, chosen: str, r: _Request) -> EvidenceReading:
    found = parse_nccl_tests_json(
        text, r.source, nic_aggregate_gb_s=r.nic_aggregate_gb_s, nodes=r.nodes
    )
    return _nccl_runs_read(tuple(found), [], chosen, r)


def _nccl_runs_read(
    runs: tuple[NcclTestsRun, ...], skipped: list[Skipped], chosen: str, r: _Request
) -> EvidenceReading:
    if r.fabric is not None:
        runs = tuple(_against_fabric(run, r.fabric) for run in runs)
    reading = _nccl_reading(
        r.source, chosen, r.sha, r.name, runs, r.measured_by or "provider", r.measured_on, r.nodes
    )
    return replace(reading, notes=reading.notes + tuple(s.reason for s in skipped))


def _read_training_log(text: str, chosen: str, r: _Request) -> EvidenceReading:
    """The run's own output: measured, by whoever ran it (default provider)."""
    log = parse_training_log(text, r.source)
    item = training_log_evidence(
        log,
        measured_by=r.measured_by or "provider",
        artefact_sha256=r.sha,
        artefact_name=r.name,
        measured_on=r.measured_on,
    )
    return EvidenceReading(r.source, chosen, r.sha, training_log=log, evidence=(item,))


def _read_scaling(text: str, chosen: str, r: _Request) -> EvidenceReading:
    table = parse_scaling_csv(text, r.source)
    _same_measurer(r.source, table.setup.measured_by, r.measured_by)
    items = scaling_evidence(table, artefact_sha256=r.sha, artefact_name=r.name)
    return EvidenceReading(r.source, chosen, r.sha, scaling=table, evidence=tuple(items))


def _read_throughput_csv(text: str, chosen: str, r: _Request) -> EvidenceReading:
    return _throughput_read(parse_throughput_csv(text, r.source), chosen, r)


def _read_throughput_json(text: str, chosen: str, r: _Request) -> EvidenceReading:
    return _throughput_read(parse_throughput_json(text, r.source), chosen, r)


def _throughput_read(throughput: ThroughputTable, chosen: str, r: _Request) -> EvidenceReading:
    for result in throughput.results:
        _same_measurer(r.source, result.row.measured_by, r.measured_by, result)
    items = [
        throughput_evidence(x, artefact_sha256=r.sha, artefact_name=r.name)
        for x in throughput.results
    ]
    return EvidenceReading(r.source, chosen, r.sha, throughput=throughput, evidence=tuple(items))


# Format (formats.py) -> its reader: (text, format name, request) -> EvidenceReading.
Reader = Callable[[str, str, _Request], EvidenceReading]
READERS: dict[str, Reader] = {
    "nccl-text": _read_nccl_text,
    "nccl-json": _read_nccl_json,
    "throughput-csv": _read_throughput_csv,
    "throughput-json": _read_throughput_json,
    "scaling-csv": _read_scaling,
    "training-log": _read_training_log,
}


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


def _against_fabric(run: NcclTestsRun, fabric: FabricClaim) -> NcclTestsRun:
    extra = topology_flags(run.topology, fabric.technology, fabric.rdma, fabric.gpudirect_rdma)
    return run.model_copy(update={"flags": run.flags + tuple(extra)}) if extra else run


def _same_measurer(
    source: str, in_file: str, given: str | None, result: ThroughputResult | None = None
) -> None:
    if given is not None and given != in_file:
        line = result.row.line if result is not None else None
        raise EvidenceParseError(
            source,
            line,
            f"the file says measured_by {in_file}, but {given} was given: "
            "correct the file (who measured is part of the evidence) or drop the option",
        )


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


def _nccl_reading(
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


def reading_to_json(reading: EvidenceReading) -> dict[str, object]:
    """A plain JSON view for `clusterbid evidence parse --json` and scripts."""
    out: dict[str, object] = {
        "source": reading.source,
        "format": reading.format,
        "sha256": reading.sha256,
    }
    if reading.nccl_runs:
        numbered = enumerate(reading.nccl_runs, start=reading.first_run_number)
        out["nccl_runs"] = [_run_json(index, run) for index, run in numbered]
    if reading.throughput is not None:
        out["throughput_rows"] = [
            json.loads(result.model_dump_json()) for result in reading.throughput.results
        ]
    if reading.scaling is not None:
        table = reading.scaling
        out["scaling"] = {
            "setup": {k: (v.isoformat() if isinstance(v, dt.date) else v) for k, v in vars(table.setup).items()},
            "exponent": table.fit.exponent, "coefficient": table.fit.coefficient,
            "rms_relative_error": table.fit.rms_relative_error,
            "points": [vars(p) for p in table.points],
        }  # fmt: skip
    if reading.training_log is not None:
        log = reading.training_log
        out["training_log"] = {
            "arguments": {k: log.arguments[k] for k in sorted(log.arguments)},
            "step_times_s": list(log.step_times_s),
            "step_time_s": log.step_time_s,
        }
    out["flags"] = [flag.model_dump() for flag in reading.flags()]
    out["notes"] = list(reading.notes)
    out["evidence"] = [json.loads(item.model_dump_json()) for item in reading.evidence]
    return out


def _run_json(index: int, run: NcclTestsRun) -> dict[str, object]:
    """One run with its per-size curve: what the officer needs to judge a sweep, saturated or not."""
    out = json.loads(run.model_dump_json(exclude={"rows"}))
    curve = []
    for row in run.rows:
        point: dict[str, object] = {"bytes": row.size_bytes, "line": row.line}
        for name, half in (("out_of_place", row.out_of_place), ("in_place", row.in_place)):
            point[name] = {
                "time_us": half.time_us,
                "algbw_gb_s": half.algbw_gb_s,
                "busbw_gb_s": half.busbw_gb_s,
            }
        curve.append(point)
    return {"run": index} | out | {"rows": len(run.rows), "curve": curve}
