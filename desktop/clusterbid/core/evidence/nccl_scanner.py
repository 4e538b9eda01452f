"""The line-by-line state of reading an nccl-tests text log: the run being filled, the column
layout in force, the tables set aside and why; comment lines (# version, # Rank, # size header,
footers) and result rows each update it. nccl_text.py drives it over the file."""

from __future__ import annotations

import math
import re
from typing import cast

from pydantic import ValidationError

from clusterbid.core.evidence.errors import EvidenceParseError
from clusterbid.core.evidence.nccl_columns import (
    BY_WIDTH,
    OLD,
    STANDARD,
    Columns,
    Skipped,
    TableProblem,
    ascii_int,
    resolution,
)
from clusterbid.core.evidence.nccl_raw import MAX_RESULT_ROWS, TYPE_BYTES, RawRun
from clusterbid.core.evidence.nccl_result import PROGRAM_NAME, NcclTestsResult, NcclTestsRow
from clusterbid.core.evidence.nccl_topology import TopologyCollector

# Reasons for what was set aside kept for the officer: the first few say what is wrong.
MAX_SKIPS_SHOWN = 20


# Every regex below is anchored and free of nested quantifiers: linear on any line.
_RANK = re.compile(
    r"Rank\s+(\d{1,9})\s+(?:Group\s+\d+\s+)?Pid\s+\d+\s+on\s+(\S+)\s+device\s+\d+\s+\[[^\]]*\]\s*(.*)"
)


class Scanner:
    """One pass over the lines; state is the run being filled and the column layout in force."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.runs: list[RawRun] = []
        self.run: RawRun | None = None
        self.columns: Columns | None = None
        self.in_table = False
        self.pending_program: str | None = None
        self.saw_avg_line = False
        self.pending_topology = TopologyCollector()  # NCCL INFO lines seen before their run began
        self.rows_read = 0
        self.skipping = False  # rows below a set-aside table or an unreadable header are not read
        self.skipped: list[Skipped] = []
        self.skips = 0
        self.first_problem: TableProblem | None = None
        self.problems = 0

    def fail(self, lineno: int, problem: str) -> TableProblem:
        return TableProblem(lineno, problem)

    def skip_table(self, problem: TableProblem, *, header: bool = False) -> None:
        """Set aside the table a problem line belongs to (its rows are read no further) and keep
        reading: a later table may still be usable. A header not understood spoils only the rows
        below it, not the table before it."""
        where = f"line {problem.lineno}"
        if self.run is not None and not header:
            if self.run in self.runs:
                self.runs.remove(self.run)
            if self.run.first_line is not None and self.run.first_line != problem.lineno:
                where = f"the table from line {self.run.first_line} (at line {problem.lineno})"
        self.note(Skipped(problem.lineno, f"{where} set aside: {problem.problem}"))
        self.first_problem = self.first_problem or problem
        self.problems += 1
        self.run, self.columns, self.in_table, self.skipping = None, None, False, True

    def note(self, skipped: Skipped) -> None:
        """Keep the first few reasons; a file of thousands of odd lines must not cost memory."""
        if len(self.skipped) < MAX_SKIPS_SHOWN:
            self.skipped.append(skipped)
        self.skips += 1

    def new_run(self, lineno: int) -> RawRun:
        self.run = RawRun(
            source=self.source,
            output_format="text",
            first_line=lineno,
            program=self.pending_program,
        )
        self.pending_program = None
        self.run.topology, self.pending_topology = self.pending_topology, TopologyCollector()
        self.runs.append(self.run)
        self.columns = None
        self.in_table = self.skipping = False
        return self.run

    def current(self, lineno: int, *, fresh: bool = False) -> RawRun:
        """The run to fill; `fresh` when the line opens a new run unless nothing was read yet."""
        if self.run is None or (fresh and (self.run.rows or self.run.out_of_bounds is not None)):
            return self.new_run(lineno)
        if self.run.program is None and self.pending_program is not None:
            self.run.program, self.pending_program = self.pending_program, None
        return self.run

    def comment(self, lineno: int, body: str) -> None:
        if self.skipping and body.startswith(("Out of bounds values", "Avg bus bandwidth")):
            return  # the footer of a table set aside
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
            columns = Columns.from_names(body.split())
            if columns is None and self.skipping:
                self.skips += 1  # one more line below a table set aside: counted, cheaply
                return
            if columns is None:
                self.skip_table(
                    self.fail(lineno, f"column header not understood: {body[:200]!r}"), header=True
                )
                return
            run = self.current(lineno, fresh=True)
            if self.columns is not None:
                run = self.new_run(lineno)
            self.columns, self.in_table, self.skipping = columns, True, False
        elif body.startswith("Out of bounds values"):
            value = body.partition(":")[2].split()[:1]
            if not value or not ascii_int(value[0]):
                raise self.fail(lineno, "'# Out of bounds values' is not followed by a count")
            self.current(lineno).out_of_bounds = int(value[0])
            self.in_table = False  # the footer: what follows is not this table's rows
        elif body.startswith("Avg bus bandwidth"):
            value = body.partition(":")[2].split()[:1]
            self.current(lineno).avg_busbw = self.number(
                lineno, value[0] if value else "", "Avg bus bandwidth"
            )[0]
            self.saw_avg_line, self.in_table = True, False
        elif body.startswith("Collective test concluded") and self.run is not None:
            self.program_mention(body, self.run)

    def nccl_info(self, body: str) -> None:
        """NCCL prints its set-up while the communicator starts: before the run's rows."""
        (
            self.run.topology
            if self.run is not None and not self.run.rows
            else self.pending_topology
        ).feed(body)

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
        return value, resolution(token)

    def integer(self, lineno: int, token: str, what: str) -> int:
        if not ascii_int(token.lstrip("-")) or len(token) > 20:
            raise self.fail(lineno, f"{what} is not a whole number: {token[:40]!r}")
        return int(token)

    def row(self, lineno: int, tokens: list[str], cut_off: bool) -> None:
        self.rows_read += 1
        if self.rows_read > MAX_RESULT_ROWS:
            raise EvidenceParseError(
                self.source,
                lineno,
                f"more than {MAX_RESULT_ROWS:,} result rows in one file (a sweep is tens of "
                "sizes): attach each run's output on its own",
            )
        if self.skipping:
            return
        if self.in_table and self.run is not None and self.run.rows and not row_shaped(tokens):
            # Text after the rows (a footnote, a date) ends the table instead of spoiling it.
            self.note(
                Skipped(lineno, f"line {lineno} is not a result row: read as text after the table")
            )
            self.in_table = False
            return
        run = self.current(lineno, fresh=not self.in_table)
        # STANDARD is built from a fixed header, never None: the cast only tells the type checker.
        columns = cast(Columns, self.columns or BY_WIDTH.get(len(tokens)) or STANDARD)
        if len(tokens) != columns.width:
            hint = " (the file ends mid-line: truncated?)" if cut_off else ""
            raise self.fail(
                lineno,
                f"expected {columns.width} columns ({' '.join(columns.names)}), found "
                f"{len(tokens)}{hint}",
            )
        self.in_table = True
        halves, resolutions = [], []
        for half in columns.halves:
            values, algbw_res, busbw_res = self.result_half(lineno, tokens, run, half)
            halves.append(values)
            resolutions += [algbw_res, busbw_res]
        root = None
        if columns.root is not None:
            root = self.integer(lineno, tokens[columns.root], "root")
        redop = tokens[columns.redop] if columns.redop is not None else None
        if columns is OLD and redop is not None and ascii_int(redop.lstrip("-")):
            root, redop = int(redop), None  # old broadcast/reduce printed root where redop sits
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

    def result_half(
        self,
        lineno: int,
        tokens: list[str],
        run: RawRun,
        half: tuple[int, int, int, int | None, str | None],
    ) -> tuple[dict[str, float | int | None], float, float]:
        """One half of a row (out of place or in place): its figures for NcclTestsResult, and the
        print resolution of its algbw and busbw."""
        time_i, algbw_i, busbw_i, check_i, check_name = half
        algbw, algbw_res = self.number(lineno, tokens[algbw_i], "algbw")
        busbw, busbw_res = self.number(lineno, tokens[busbw_i], "busbw")
        check = tokens[check_i] if check_i is not None else "N/A"  # a build without checks
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
        values: dict[str, float | int | None] = dict(
            time_us=time_us, algbw_gb_s=algbw, busbw_gb_s=busbw, wrong=wrong, max_error=max_error
        )
        return values, algbw_res, busbw_res


def row_shaped(tokens: list[str]) -> bool:
    """Size, count and a type name: a result row, however damaged its later columns are."""
    return len(tokens) > 2 and ascii_int(tokens[1]) and tokens[2] in TYPE_BYTES
