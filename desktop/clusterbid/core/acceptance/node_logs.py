"""Readers of the two acceptance files no evidence reader knows: the printed output of
`dcgmi diag -r 3` (one file per node) and the burn-in soak log.

dcgmi diag prints a two-column table, "Diagnostic | Result", in sections (Metadata, Deployment,
Integration, Hardware, Stress); each test's result cell begins with Pass, Fail, Warn, Skip or
Not Run, optionally followed by " - All" or the GPUs it concerns; "Info" and "Warning" rows and
continuation rows (an empty first cell) carry details. DCGM 4 adds per-GPU continuation rows
("GPU0: Fail"). Sources: NVIDIA DCGM User Guide, "DCGM Diagnostics" (run levels and the test
list, docs.nvidia.com/datacenter/dcgm/latest/user-guide/dcgm-diagnostics.html) and the result
words of dcgmi's own table printer (github.com/NVIDIA/DCGM, dcgmi/Diag.cpp).

The soak log has no public standard; its format is ClusterBid's, described for providers in
resources/evidence-formats.md ("Soak log"): '# started:', '# ended:' and '# gpus:' lines, then a
CSV of events, each a job-interrupting `failure` or an `error-counter` that grew (XID, ECC,
link). Both readers take bytes already capped by the safe reader and refuse anything else with
the file, line and rule named."""

from __future__ import annotations

import csv
import datetime as dt
import re
from dataclasses import dataclass

from clusterbid.core.errors import InputError

MAX_LINES = 20_000  # a level-3 table of 8 GPUs with every detail is a few hundred lines
MAX_LINE_CHARS = 4_096
RESULT = re.compile(r"^(Pass|Fail|Warn|Skip|Not Run)\b\s*(?:-\s*(.*))?$")
PER_GPU = re.compile(r"^GPU\s*(\d+)\s*:\s*(Fail|Warn)\b", re.IGNORECASE)
SECTION = re.compile(r"^[|+]-+\s+([A-Za-z][A-Za-z ]*?)\s+-+\+")
ROW = re.compile(r"^\|([^|]*)\|(.*)\|\s*$")
# The stress tests level 3 adds to levels 1 and 2: a table without them ran a shorter diagnostic.
LEVEL_3_TESTS = ("Targeted Stress", "Targeted Power", "Memory Bandwidth")
# A test ran when some GPU gave it a verdict; Skip and Not Run are no verdict.
RAN = ("pass", "warn", "fail")
SOAK_EVENTS = ("failure", "error-counter")
SOAK_KEYS = ("started", "ended", "gpus")


@dataclass(frozen=True)
class DiagTest:
    section: str
    name: str
    result: str  # "pass", "fail", "warn", "skip" or "not run"
    detail: str


@dataclass(frozen=True)
class DiagReport:
    tests: tuple[DiagTest, ...]

    @property
    def failed(self) -> tuple[DiagTest, ...]:
        """Fail or Warn: the plan's rule is that every test of every node reports Pass."""
        return tuple(t for t in self.tests if t.result in ("fail", "warn"))

    @property
    def missing_level_3(self) -> tuple[str, ...]:
        names = {t.name.lower() for t in self.tests}
        return tuple(n for n in LEVEL_3_TESTS if n.lower() not in names)

    @property
    def skipped_level_3(self) -> tuple[tuple[str, str], ...]:
        """(name, "skip" or "not run") of each level-3 test present but run on no GPU: a row
        that names the test without a verdict is no more evidence than an absent row."""
        ran = {t.name.lower() for t in self.tests if t.result in RAN}
        results = {t.name.lower(): t.result for t in self.tests if t.result not in RAN}
        return tuple(
            (n, results[n.lower()])
            for n in LEVEL_3_TESTS
            if n.lower() in results and n.lower() not in ran
        )


@dataclass(frozen=True)
class SoakEvent:
    line: int
    node: str
    event: str
    detail: str


@dataclass(frozen=True)
class SoakLog:
    hours: float
    gpus: int
    events: tuple[SoakEvent, ...]

    def of(self, kind: str) -> tuple[SoakEvent, ...]:
        return tuple(e for e in self.events if e.event == kind)


def decoded_text(
    data: bytes,
    name: str,
    *,
    not_what: str,
    as_is: str,
    as_printed: str,
    max_bytes: int | None = None,
    too_big: str = "",
) -> str:
    """The file as text, refused with its name if larger than max_bytes (when given), holding
    NUL bytes or not UTF-8 (naming the line). One intake for the table, the soak log and the
    JSON (dcgm_json.py); the words say what the file is not and what to return instead."""
    if max_bytes is not None and len(data) > max_bytes:
        raise InputError(
            f"{name}: {len(data):,} bytes, more than the {max_bytes // 2**20} MiB {too_big}"
        )
    if b"\x00" in data:
        raise InputError(f"{name}: holds NUL bytes, so it is not {not_what}; return {as_is}")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        bad = data[: exc.start].count(b"\n") + 1
        raise InputError(f"{name} line {bad}: not UTF-8 text; return {as_printed}") from None


def _lines(data: bytes, name: str) -> list[str]:
    text = decoded_text(
        data, name, not_what="a text log", as_is="the log as is", as_printed="the log as printed"
    )
    lines = text.splitlines()
    if len(lines) > MAX_LINES:
        raise InputError(
            f"{name}: {len(lines):,} lines, more than the {MAX_LINES:,} one log may hold; "
            "return one file per node"
        )
    for number, line in enumerate(lines, 1):
        if len(line) > MAX_LINE_CHARS:
            raise InputError(
                f"{name} line {number}: {len(line):,} characters, more than {MAX_LINE_CHARS:,}"
            )
    return lines


def parse_dcgm_diag(data: bytes, name: str) -> DiagReport:
    """Every test row of the table, with its result and the details printed under it."""
    lines = _lines(data, name)
    start = next(
        (i for i, x in enumerate(lines) if re.match(r"^\|\s*Diagnostic\s*\|\s*Result\s*\|", x)),
        None,
    )
    if start is None:
        raise InputError(
            f"{name}: no 'Diagnostic | Result' table, so not the output of dcgmi diag; return "
            "what 'dcgmi diag -r 3' prints on the node, as is"
        )
    tests: list[DiagTest] = []
    section, warning = "", False
    for number, line in enumerate(lines[start + 1 :], start + 2):
        heading = SECTION.match(line)
        if heading:
            section = heading.group(1).strip()
            continue
        row = ROW.match(line)
        if row is None or section in ("", "Metadata"):
            continue
        cell, value = row.group(1).strip(), row.group(2).strip()
        if cell in ("Info", "Warning"):
            warning = cell == "Warning"  # an Info row and its continuations are not a verdict
        if not cell or cell in ("Info", "Warning"):
            per_gpu = PER_GPU.match(value)
            if tests and (per_gpu or warning):
                last = tests[-1]
                result = "fail" if per_gpu and last.result == "pass" else last.result
                detail = f"{last.detail} {value}".strip()[:300]
                tests[-1] = DiagTest(last.section, last.name, result, detail)
            continue
        warning = False
        found = RESULT.match(value)
        if found is None:
            raise InputError(
                f"{name} line {number}: test {cell[:60]!r} reads {value[:60]!r}, not Pass, Fail, "
                "Warn, Skip or Not Run; return the output of dcgmi diag unchanged"
            )
        tests.append(DiagTest(section, cell, found.group(1).lower(), found.group(2) or ""))
    if not tests:
        raise InputError(f"{name}: the dcgmi diag table lists no test results")
    return DiagReport(tuple(tests))


def _when(text: str, name: str, key: str) -> dt.datetime:
    try:
        moment = dt.datetime.fromisoformat(text.strip().replace("Z", "+00:00"))
    except ValueError:
        raise InputError(
            f"{name}: {key} must be a date and time such as 2026-12-01T00:00:00Z, "
            f"not {text.strip()[:40]!r}"
        ) from None
    if moment.tzinfo is None:
        raise InputError(f"{name}: {key} needs its time zone (end it with Z for UTC)")
    return moment


def parse_soak_log(data: bytes, name: str) -> SoakLog:
    lines = _lines(data, name)
    meta: dict[str, str] = {}
    body = []
    for number, line in enumerate(lines, 1):
        found = re.match(r"^#\s*([a-z_]+)\s*:\s*(.*)$", line)
        if found and found.group(1) in SOAK_KEYS:
            meta[found.group(1)] = found.group(2)
        elif line.strip() and not line.startswith("#"):
            body.append((number, line))
    absent = [key for key in SOAK_KEYS if key not in meta]
    if absent:
        raise InputError(
            f"{name}: not a soak log: no {', '.join(f'# {k}:' for k in absent)} line "
            "(format: evidence-formats.md, 'Soak log')"
        )
    started, ended = (
        _when(meta["started"], name, "'# started:'"),
        _when(meta["ended"], name, "'# ended:'"),
    )
    if ended <= started:
        raise InputError(f"{name}: '# ended:' {meta['ended']} is not after '# started:'")
    if not re.fullmatch(r"\s*[1-9][0-9]{0,6}\s*", meta["gpus"]):
        raise InputError(f"{name}: '# gpus:' must be a whole number of GPUs, not {meta['gpus']!r}")
    if not body or [c.strip() for c in body[0][1].split(",")] != [
        "time",
        "node",
        "event",
        "detail",
    ]:
        raise InputError(f"{name}: the events must begin with the header time,node,event,detail")
    events = []
    for number, line in body[1:]:
        # One line, one row: a stray quote must not swallow the lines after it into one field.
        cells = next(csv.reader([line]), [])
        if len(cells) != 4:
            raise InputError(f"{name} line {number}: {len(cells)} columns, not 4: {line[:80]!r}")
        moment = _when(cells[0], f"{name} line {number}", "the time")
        if not started <= moment <= ended:
            raise InputError(f"{name} line {number}: {cells[0]} falls outside the soak")
        if cells[2].strip() not in SOAK_EVENTS:
            raise InputError(
                f"{name} line {number}: event {cells[2].strip()[:40]!r} is not one of "
                f"{', '.join(SOAK_EVENTS)}"
            )
        events.append(SoakEvent(number, cells[1].strip(), cells[2].strip(), cells[3].strip()))
    hours = (ended - started).total_seconds() / 3600.0
    return SoakLog(hours, int(meta["gpus"]), tuple(events))
