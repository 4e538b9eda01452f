"""Read an attached evidence file off the GUI thread and turn it into graded Evidence.

The one core reader (`read_evidence`, as `clusterbid evidence` uses) reads every kind of file; the
grade follows who measured (an nccl-tests log: whom the officer names on the page; a throughput or
scaling file says so inside). The bid's fabric goes with it, so a log that ran over TCP sockets or
without GPUDirect RDMA against a bid that claims them is flagged here as on the command line.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from clusterbid.core.errors import InputError
from clusterbid.core.evidence import Evidence, load_evidence_bytes, read_evidence
from clusterbid.core.evidence.formats import format_spec
from clusterbid.core.evidence.reading import FabricClaim, detect_format, scored_runs


@dataclass(frozen=True)
class ParsedLog:
    """A file that became evidence (one figure or more), with the red flags (code, message) to show."""

    name: str
    items: tuple[Evidence, ...]
    flags: tuple[tuple[str, str], ...]
    data: bytes = (
        b""  # the file as read: kept in the document with the bid (its SHA-256 is the items')
    )


@dataclass(frozen=True)
class UnreadableLog:
    name: str
    message: str


def read_log(
    path: Path,
    measured_by: str,
    nic_aggregate_gb_s: float | None,
    fabric: FabricClaim | None = None,
) -> ParsedLog:
    """The file's figures: an nccl-tests log gives its first run that can back a busbw figure (a
    file of several runs is split with `clusterbid evidence --run N`); InputError otherwise."""
    data = load_evidence_bytes(path, path.name)
    try:
        reading = read_evidence(
            data,
            path.name,
            measured_by=measured_by if _is_log(data) else None,
            nic_aggregate_gb_s=nic_aggregate_gb_s,
            fabric=fabric,
        )
    except InputError as exc:
        raise serving_benchmark_instead(data, path.name) or exc from None
    if not reading.evidence:
        why = "; ".join(reading.notes) or "no nccl-tests run or throughput row found"
        problem = InputError(f"{path.name}: no figure the cost model can use ({why})")
        raise serving_benchmark_instead(data, path.name) or problem
    if reading.nccl_runs:
        run = scored_runs(reading)[0]
        return ParsedLog(
            path.name, reading.evidence[:1], tuple((f.code, f.message) for f in run.flags), data
        )
    return ParsedLog(
        path.name, reading.evidence, tuple((f.code, f.message) for f in reading.flags()), data
    )


def serving_benchmark_instead(data: bytes, name: str) -> InputError | None:
    """A refusal saying where a serving benchmark goes, for a file the serving readers take (a
    vLLM result JSON read as a training file said only "document: missing 'results'"); None for
    any other file. Its GPUs, precision and model are asked for where it is attached."""
    from clusterbid.core.evidence.errors import EvidenceParseError
    from clusterbid.core.evidence.serving_readers import read_serving_benchmark

    try:
        run = read_serving_benchmark(data.decode("utf-8", errors="replace"), name)
    except EvidenceParseError:
        return None
    return InputError(
        f"{name} is a {run.engine} serving benchmark, not an nccl-tests, training-throughput or "
        "scaling file. A serving benchmark is attached to a serving bid once the bid is added: "
        "finish this wizard, select the bid in the evaluation's window and choose Edit > Attach "
        "Serving Benchmark…"
    )


def _is_log(data: bytes) -> bool:
    """Output whose measurer is the officer's word (an nccl-tests or training log: formats.py);
    the tables name their measurer in the file."""
    found = detect_format(data[:200_000].decode("utf-8", errors="replace"))
    return not format_spec(found).measurer_in_file


def parse_file(
    path: Path, measured_by: str, nic_aggregate_gb_s: float | None, fabric: FabricClaim | None
) -> ParsedLog | UnreadableLog:
    """read_log run off the GUI thread: whatever goes wrong is an UnreadableLog to show, never an
    exception lost with its thread."""
    try:
        return read_log(path, measured_by, nic_aggregate_gb_s, fabric)
    except InputError as exc:
        return UnreadableLog(path.name, str(exc))
    except Exception as exc:  # noqa: BLE001 (a parser bug is shown as such)
        return UnreadableLog(path.name, f"could not be read: {type(exc).__name__}: {exc}")
