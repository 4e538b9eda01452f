"""Read any evidence artefact: check it, parse it with its format's reader, grade it, say what was
read. The file's intake (limits, format by content) is evidence_file.py; what a reading holds is
reading_result.py; nccl-tests runs become evidence in nccl_reading.py. Their public names are
importable from here too, where the app, the CLI and the operations have always found them."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass, replace

from clusterbid.core.evidence.errors import EvidenceParseError
from clusterbid.core.evidence.evidence_file import (
    FORMATS,
    MAX_EVIDENCE_BYTES,
    MAX_TABLE_BYTES,
    EvidenceFormat,
    decode_text,
    detect_format,
    load_evidence_bytes,
    media_type_of,
    size_over,
)
from clusterbid.core.evidence.formats import format_names, format_spec
from clusterbid.core.evidence.nccl_columns import Skipped
from clusterbid.core.evidence.nccl_evidence import sha256_hex
from clusterbid.core.evidence.nccl_json import parse_nccl_tests_json
from clusterbid.core.evidence.nccl_raw import NodeCount
from clusterbid.core.evidence.nccl_reading import (
    FabricClaim,
    against_fabric,
    fabric_claim_of,
    nccl_reading,
    scored_runs,
    select_run,
)
from clusterbid.core.evidence.nccl_result import NcclTestsRun
from clusterbid.core.evidence.nccl_text import read_nccl_tests_text
from clusterbid.core.evidence.provenance import MEASURERS
from clusterbid.core.evidence.reading_result import EvidenceReading, reading_to_json
from clusterbid.core.evidence.scaling import parse_scaling_csv, scaling_evidence
from clusterbid.core.evidence.throughput import ThroughputResult
from clusterbid.core.evidence.throughput_as_evidence import throughput_evidence
from clusterbid.core.evidence.throughput_readers import (
    ThroughputTable,
    parse_throughput_csv,
    parse_throughput_json,
)
from clusterbid.core.evidence.training_log import parse_training_log, training_log_evidence

__all__ = [
    "FORMATS",
    "MAX_EVIDENCE_BYTES",
    "MAX_TABLE_BYTES",
    "READERS",
    "EvidenceFormat",
    "EvidenceReading",
    "FabricClaim",
    "detect_format",
    "fabric_claim_of",
    "load_evidence_bytes",
    "media_type_of",
    "read_evidence",
    "reading_to_json",
    "scored_runs",
    "select_run",
]


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
    _refuse_unknown_options(source, fmt, measured_by, measured_on)
    if len(data) > MAX_EVIDENCE_BYTES:
        raise EvidenceParseError(
            source,
            None,
            f"{size_over(len(data), MAX_EVIDENCE_BYTES)} is larger than the "
            f"{MAX_EVIDENCE_BYTES // 2**20} MiB limit for an evidence file",
        )
    text = decode_text(data, source)
    chosen = detect_format(text) if fmt == "auto" else fmt
    if format_spec(chosen).held_small and len(data) > MAX_TABLE_BYTES:
        raise EvidenceParseError(
            source,
            None,
            f"{size_over(len(data), MAX_TABLE_BYTES)} is larger than the "
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


def _refuse_unknown_options(
    source: str, fmt: str, measured_by: str | None, measured_on: dt.date | None
) -> None:
    """What the caller says of the file must be one of the known formats and measurers, and the
    measurement cannot be dated in the future."""
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
        runs = tuple(against_fabric(run, r.fabric) for run in runs)
    reading = nccl_reading(
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
