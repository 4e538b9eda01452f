"""Read an attached evidence file off the GUI thread and turn it into graded Evidence.

nccl-tests logs take the grade the officer picks on the page; a training-throughput or scaling
file says who measured it inside, so core grades it from that (resources/evidence-formats.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QObject, QRunnable, Signal

from clusterbid.core.errors import InputError
from clusterbid.core.evidence import (
    Evidence,
    EvidenceGrade,
    detect_format,
    load_evidence_bytes,
    parse_nccl_tests_json,
    parse_nccl_tests_text,
    read_evidence,
    sha256_hex,
    to_evidence,
)


@dataclass(frozen=True)
class ParsedLog:
    """A file that became evidence (one figure or more), with the red flags (code, message) to show."""

    name: str
    items: tuple[Evidence, ...]
    flags: tuple[tuple[str, str], ...]
    data: bytes = b""  # the file as read: kept in the document with the bid (its SHA-256 is the items')


@dataclass(frozen=True)
class UnreadableLog:
    name: str
    message: str


class ParseSignals(QObject):
    finished = Signal(object)  # ParsedLog | UnreadableLog


def read_log(path: Path, grade: EvidenceGrade, measured_by: str, nic_aggregate_gb_s: float | None) -> ParsedLog:
    """The first all_reduce run in the file that can back a busbw figure; InputError otherwise."""
    data = load_evidence_bytes(path, path.name)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InputError(f"{path.name}: not UTF-8 text (byte {exc.start}); attach the log as saved by nccl-tests") from None
    kind = detect_format(text)
    if kind not in ("nccl-text", "nccl-json"):
        reading = read_evidence(data, path.name, fmt=kind)
        if not reading.evidence:
            raise InputError(f"{path.name}: no figure the cost model can use ({'; '.join(reading.notes) or kind})")
        return ParsedLog(path.name, reading.evidence, tuple((f.code, f.message) for f in reading.flags()), data)
    parse = parse_nccl_tests_json if kind == "nccl-json" else parse_nccl_tests_text
    runs = parse(text, path.name, nic_aggregate_gb_s=nic_aggregate_gb_s)
    last_problem: InputError | None = None
    for run in runs:
        try:
            evidence = to_evidence(run, grade=grade, measured_by=measured_by,
                                   artefact_sha256=sha256_hex(data), artefact_name=path.name)
        except InputError as exc:
            last_problem = exc
            continue
        return ParsedLog(path.name, (evidence,), tuple((f.code, f.message) for f in run.flags), data)
    raise last_problem or InputError(f"{path.name}: no nccl-tests run found")


class ParseLogTask(QRunnable):
    """One file, parsed on a QThreadPool thread; the result arrives through `signals.finished`."""

    def __init__(self, path: Path, grade: EvidenceGrade, measured_by: str, nic_aggregate_gb_s: float | None) -> None:
        super().__init__()
        self.signals = ParseSignals()
        self._args = (path, grade, measured_by, nic_aggregate_gb_s)

    def run(self) -> None:
        path = self._args[0]
        try:
            result: ParsedLog | UnreadableLog = read_log(*self._args)
        except InputError as exc:
            result = UnreadableLog(path.name, str(exc))
        except Exception as exc:  # a parser bug must not kill the thread silently
            result = UnreadableLog(path.name, f"could not be read: {type(exc).__name__}: {exc}")
        self.signals.finished.emit(result)
