"""Parse nccl-tests' text output (any version since 2018) into NcclTestsRun objects."""

from __future__ import annotations

import math
import re
from collections.abc import Iterator
from dataclasses import dataclass

from pydantic import ValidationError

from clusterbid.core.evidence.errors import EvidenceParseError
from clusterbid.core.evidence.nccl_checks import MAX_RESULT_ROWS, TYPE_BYTES, NodeCount, RawRun, finish_run
from clusterbid.core.evidence.nccl_topology import TopologyCollector
from clusterbid.core.evidence.nccl_result import PROGRAM_NAME, NcclTestsResult, NcclTestsRow, NcclTestsRun

# nccl-tests lines are under 300 characters; a far longer line is not a log we can read, and
# refusing it up front keeps every later step (split, regex) cheap.
MAX_LINE_CHARS = 64 * 1024
# Lines one log may hold: nccl-tests with NCCL_DEBUG=INFO prints about 150 lines per rank, so a
# 1,024-GPU run is some 150,000. Every line costs a pass of the loop below whatever it holds (a
# file of empty lines is the cheapest way to make millions), so the count is bounded too.
MAX_LINES = 400_000

# Every regex below is anchored and free of nested quantifiers: linear on any line.
_RANK = re.compile(r"Rank\s+(\d{1,9})\s+(?:Group\s+\d+\s+)?Pid\s+\d+\s+on\s+(\S+)\s+device\s+\d+\s+\[[^\]]*\]\s*(.*)")
_TAG_PREFIX = re.compile(r"\[\d+,\d+\]<std(?:out|err)>:|\d{1,6}: ")  # mpirun --tag-output, srun -l
_NCCL_LOG = re.compile(r"\bNCCL (?:INFO|WARN|TRACE|ERROR)\b")
# Launcher options that fix the node count: mpirun -np N with -npernode/--map-by ppr:M, or
# --nodes/--nnodes N (srun, torchrun). Open MPI's -N means per node, so bare -N is not used.
_CONTINUED = re.compile(r"\\[ \t]*\r?\n[>\s]*")
_LAUNCHER = re.compile(r"\b(?:mpirun|mpiexec|srun|torchrun)\b[^\n]*")
_NP = re.compile(r"(?:^|\s)(?:-np|-n|--np|--ntasks)[= ](\d{1,6})\b")
_PER_NODE = re.compile(r"(?:-npernode|--npernode|--ntasks-per-node|-ppn|--map-by ppr:)[= ]?(\d{1,6})\b")
_NODES = re.compile(r"(?:--nodes|--nnodes)[= ](\d{1,6})\b")


def _launch_nodes(text: str) -> int | None:
    """Nodes the first launcher command line in the text asked for, if it says."""
    match = _LAUNCHER.search(_CONTINUED.sub(" ", text[:200_000]))
    if match is None:
        return None
    line = match[0]
    if nodes := _NODES.search(line):
        return int(nodes[1]) or None
    np, per_node = _NP.search(line), _PER_NODE.search(line)
    if np and per_node and int(per_node[1]) and int(np[1]) % int(per_node[1]) == 0:
        return int(np[1]) // int(per_node[1])
    return None

_STANDARD = "size count type redop root time algbw busbw #wrong time algbw busbw #wrong".split()
_OLD = "size count type redop time algbw busbw error time algbw busbw error".split()


@dataclass(frozen=True)
class _Columns:
    """Where each field sits in a row, from the header line or from the token count."""

    names: tuple[str, ...]
    redop: int | None
    root: int | None
    halves: tuple[tuple[int, int, int, int, str], ...]  # (time, algbw, busbw, check, check name)
    width: int  # tokens per row; a timestamp column prints as two

    @classmethod
    def from_names(cls, names: list[str]) -> _Columns | None:
        if names[:3] != ["size", "count", "type"]:
            return None
        if names[-2:] == ["algbw", "busbw"] and names.count("busbw") == 2:
            # Older builds and some VM images omit the last half's check title but print its value.
            first_check = names[names.index("busbw") + 1]
            names = names + [first_check] if first_check in ("#wrong", "error") else names
        halves = []
        for i, name in enumerate(names):
            if name in ("time", "cputime") and names[i + 1 : i + 3] == ["algbw", "busbw"] and i + 3 < len(names):
                halves.append((i, i + 1, i + 2, i + 3, names[i + 3]))
        if len(halves) != 2 or any(h[4] not in ("#wrong", "error") for h in halves):
            return None
        width = len(names) + (1 if "timestamp" in names else 0)
        redop = names.index("redop") if "redop" in names else None
        root = names.index("root") if "root" in names else None
        return cls(tuple(names), redop, root, (halves[0], halves[1]), width)


_BY_WIDTH = {len(_STANDARD): _Columns.from_names(_STANDARD), len(_OLD): _Columns.from_names(_OLD)}


def _ascii_int(token: str) -> bool:
    """Digits 0-9 only: str.isdigit() also accepts superscripts such as U+00B2, which int() refuses."""
    return token.isascii() and token.isdigit()


def _resolution(token: str) -> float:
    """Half the value of the last printed digit: how far rounding may have moved the figure."""
    mantissa, _, exponent = token.lower().partition("e")
    decimals = len(mantissa.partition(".")[2])
    return 0.5 * 10.0 ** ((int(exponent) if exponent else 0) - decimals)


class _Scanner:
    """One pass over the lines; state is the run being filled and the column layout in force."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.runs: list[RawRun] = []
        self.run: RawRun | None = None
        self.columns: _Columns | None = None
        self.in_table = False
        self.pending_program: str | None = None
        self.saw_avg_line = False
        self.pending_topology = TopologyCollector()  # NCCL INFO lines seen before their run began
        self.rows_read = 0

    def fail(self, lineno: int, problem: str) -> EvidenceParseError:
        return EvidenceParseError(self.source, lineno, problem)

    def new_run(self, lineno: int) -> RawRun:
        self.run = RawRun(source=self.source, output_format="text", first_line=lineno, program=self.pending_program)
        self.pending_program = None
        self.run.topology, self.pending_topology = self.pending_topology, TopologyCollector()
        self.runs.append(self.run)
        self.columns = None
        self.in_table = False
        return self.run

    def current(self, lineno: int, *, fresh: bool = False) -> RawRun:
        """The run to fill; `fresh` when the line opens a new run unless nothing was read yet."""
        if self.run is None or (fresh and (self.run.rows or self.run.out_of_bounds is not None)):
            return self.new_run(lineno)
        if self.run.program is None and self.pending_program is not None:
            self.run.program, self.pending_program = self.pending_program, None
        return self.run

    def comment(self, lineno: int, body: str) -> None:
        if body.startswith("nccl-tests version"):
            run = self.current(lineno, fresh=True)
            if run.version is not None or run.rank_hosts or self.columns is not None:
                run = self.new_run(lineno)
            rest = body[len("nccl-tests version") :].split()
            run.version = rest[0] if rest else None
        elif body.startswith(("nThread", "Collective test starting")):
            run = self.current(lineno, fresh=True)
            if run.rank_hosts or self.columns is not None:
                run = self.new_run(lineno)
            self.program_mention(body, run)
        elif body.startswith("Rank"):
            match = _RANK.match(body)
            if match:
                run = self.current(lineno, fresh=True)
                run.rank_hosts[int(match[1])] = match[2]
                run.rank_gpus[int(match[1])] = match[3].strip()
        elif body.startswith("size"):
            columns = _Columns.from_names(body.split())
            if columns is None:
                raise self.fail(lineno, f"column header not understood: {body[:200]!r}")
            run = self.current(lineno, fresh=True)
            if self.columns is not None:
                run = self.new_run(lineno)
            self.columns, self.in_table = columns, True
        elif body.startswith("Out of bounds values"):
            value = body.partition(":")[2].split()[:1]
            if not value or not _ascii_int(value[0]):
                raise self.fail(lineno, "'# Out of bounds values' is not followed by a count")
            self.current(lineno).out_of_bounds = int(value[0])
        elif body.startswith("Avg bus bandwidth"):
            value = body.partition(":")[2].split()[:1]
            self.current(lineno).avg_busbw = self.number(lineno, value[0] if value else "", "Avg bus bandwidth")[0]
            self.saw_avg_line, self.in_table = True, False
        elif body.startswith("Collective test concluded") and self.run is not None:
            self.program_mention(body, self.run)

    def nccl_info(self, body: str) -> None:
        """NCCL prints its set-up while the communicator starts: before the run's rows."""
        (self.run.topology if self.run is not None and not self.run.rows else self.pending_topology).feed(body)

    def program_mention(self, text: str, run: RawRun | None) -> None:
        match = PROGRAM_NAME.search(text)
        if match is None:
            return
        if run is not None and run.program is None:
            run.program = match[1]
        elif run is None:
            self.pending_program = match[1]

    def number(self, lineno: int, token: str, what: str) -> tuple[float, float]:
        try:
            value = float(token)
        except ValueError:
            raise self.fail(lineno, f"{what} is not a number: {token[:40]!r}") from None
        if not math.isfinite(value) or value < 0:
            raise self.fail(lineno, f"{what} must be a finite number >= 0, found {token[:40]!r}")
        return value, _resolution(token)

    def integer(self, lineno: int, token: str, what: str) -> int:
        if not _ascii_int(token.lstrip("-")) or len(token) > 20:
            raise self.fail(lineno, f"{what} is not a whole number: {token[:40]!r}")
        return int(token)

    def row(self, lineno: int, tokens: list[str], cut_off: bool) -> None:
        self.rows_read += 1
        if self.rows_read > MAX_RESULT_ROWS:
            raise self.fail(lineno, f"more than {MAX_RESULT_ROWS:,} result rows in one file (a sweep is tens of "
                            "sizes): attach each run's output on its own")
        run = self.current(lineno, fresh=not self.in_table)
        columns = self.columns or _BY_WIDTH.get(len(tokens)) or _BY_WIDTH[len(_STANDARD)]
        if len(tokens) != columns.width:
            hint = " (the file ends mid-line: truncated?)" if cut_off else ""
            raise self.fail(lineno, f"expected {columns.width} columns ({' '.join(columns.names)}), found {len(tokens)}{hint}")
        self.in_table = True
        halves, resolutions = [], []
        for time_i, algbw_i, busbw_i, check_i, check_name in columns.halves:
            algbw, algbw_res = self.number(lineno, tokens[algbw_i], "algbw")
            busbw, busbw_res = self.number(lineno, tokens[busbw_i], "busbw")
            check = tokens[check_i]
            if check.endswith("*") and len(check) > 1:
                # rccl-tests stars a check value above its threshold ("# Errors with asterisks ...").
                check = check[:-1]
                if lineno not in run.starred_lines:
                    run.starred_lines.append(lineno)
            wrong = max_error = None
            if check != "N/A" and check_name == "#wrong":
                count, _ = self.number(lineno, check, "#wrong")
                if count != int(count):
                    raise self.fail(lineno, f"#wrong must be a count, found {check[:40]!r}")
                wrong = int(count)
            elif check != "N/A":
                max_error = self.number(lineno, check, "error")[0]
            time_us = self.number(lineno, tokens[time_i], "time")[0]
            halves.append(dict(time_us=time_us, algbw_gb_s=algbw, busbw_gb_s=busbw, wrong=wrong, max_error=max_error))
            resolutions += [algbw_res, busbw_res]
        root = None
        if columns.root is not None:
            root = self.integer(lineno, tokens[columns.root], "root")
        redop = tokens[columns.redop] if columns.redop is not None else None
        if columns is _BY_WIDTH[len(_OLD)] and redop is not None and _ascii_int(redop.lstrip("-")):
            redop, root = None, int(redop)  # old broadcast/reduce printed root where redop sits
        try:
            row = NcclTestsRow(
                line=lineno, size_bytes=self.integer(lineno, tokens[0], "size"),
                count=self.integer(lineno, tokens[1], "count"), type=tokens[2], redop=redop,
                root=None if root is None or root < 0 else root,
                out_of_place=NcclTestsResult(**halves[0]), in_place=NcclTestsResult(**halves[1]),
            )  # fmt: skip
        except ValidationError as exc:
            raise self.fail(lineno, f"row not valid: {exc.errors()[0]['msg']}") from None
        run.rows.append(row)
        run.resolutions.append((resolutions[0], resolutions[1], resolutions[2], resolutions[3]))


def _numbered_lines(text: str) -> Iterator[tuple[int, str, bool]]:
    """(line number from 1, line, whether it is the last) without a list of every line: a log's
    lines as a list took several times the file's size."""
    start, number = 0, 1
    while True:
        end = text.find("\n", start)
        if end < 0:
            yield number, text[start:], True
            return
        yield number, text[start:end], False
        start, number = end + 1, number + 1


def _unwrap(line: str) -> str:
    """Strip indentation, markdown quoting and launcher prefixes around a log line."""
    text = line.strip()
    while text[:1] == ">":
        text = text[1:].lstrip()
    if text[:1] in "[0123456789" and text:
        prefix = _TAG_PREFIX.match(text)
        if prefix:
            text = text[prefix.end() :].lstrip()
    return text


def parse_nccl_tests_text(
    text: str,
    source: str = "<text>",
    *,
    collective_hint: str | None = None,
    nic_aggregate_gb_s: float | None = None,
    nodes: NodeCount | None = None,
) -> list[NcclTestsRun]:
    """Every run in a nccl-tests text log, in file order; raises EvidenceParseError only.

    `collective_hint` names the test when the log lacks the command line; `nic_aggregate_gb_s`
    (per node, GB/s) enables the 2-node busbw_above_nic_aggregate check; `nodes` is the node
    count known from outside (the bid), used when the log's rank list and launcher line are silent.
    """
    scanner = _Scanner(source)
    ends_cut = not text.endswith("\n")
    for lineno, line, last in _numbered_lines(text):
        if lineno > MAX_LINES:
            raise scanner.fail(lineno, f"more than {MAX_LINES:,} lines: longer than any nccl-tests log (about 150 "
                               "lines per GPU with NCCL_DEBUG=INFO); attach the output of the run itself")
        if len(line) > MAX_LINE_CHARS:
            raise scanner.fail(lineno, f"line is {len(line)} characters long (limit {MAX_LINE_CHARS}): not nccl-tests output")
        body = _unwrap(line)
        if not body:
            continue
        first = body[0]
        if "NCCL INFO" in body:
            scanner.nccl_info(body)
        elif first == "#":
            scanner.comment(lineno, body[1:].strip())
        elif _ascii_int(first) and not _NCCL_LOG.search(body):
            tokens = body.split()
            # Outside a table, digits start a row only if the type column reads like one.
            if scanner.in_table or (len(tokens) > 2 and tokens[2] in TYPE_BYTES):
                scanner.row(lineno, tokens, cut_off=ends_cut and last)
        elif "_perf" in body and not _NCCL_LOG.search(body):
            scanner.program_mention(body, scanner.run if scanner.run and scanner.run.is_empty() else None)
    runs = [raw for raw in scanner.runs if not raw.is_empty()]
    if not any(raw.rows for raw in runs):
        if scanner.saw_avg_line:
            raise EvidenceParseError(source, None, "only the '# Avg bus bandwidth' summary, no per-size result rows: "
                                     "that average depends on the size sweep and cannot be scored; attach the full output")
        raise EvidenceParseError(source, None, "no nccl-tests result rows found (rows such as "
                                 "'1073741824  268435456  float  sum  -1  6759.0  158.86  297.86  0 ...'): "
                                 "is this nccl-tests output?")
    launch_nodes = _launch_nodes(text)
    for raw in runs:
        raw.launch_nodes = launch_nodes
        raw.given_nodes = nodes
    return [finish_run(raw, collective_hint, nic_aggregate_gb_s) for raw in runs]
