"""Parse nccl-tests' text output (any version since 2018) into NcclTestsRun objects: the file's
limits, the pass over its lines (each handed to the Scanner, nccl_scanner.py), and the verdict
when no table is usable."""

from __future__ import annotations

import re

from clusterbid.core.evidence.errors import EvidenceParseError
from clusterbid.core.evidence.nccl_checks import finish_run
from clusterbid.core.evidence.nccl_columns import (
    Skipped,
    TableProblem,
    ascii_int,
)
from clusterbid.core.evidence.nccl_lines import launch_nodes, numbered_lines, unwrap
from clusterbid.core.evidence.nccl_raw import TYPE_BYTES, NodeCount
from clusterbid.core.evidence.nccl_result import (
    NcclTestsRun,
)
from clusterbid.core.evidence.nccl_scanner import Scanner

# nccl-tests lines are under 300 characters; a far longer line is not a log we can read, and
# refusing it up front keeps every later step (split, regex) cheap.
MAX_LINE_CHARS = 64 * 1024
# Lines one log may hold: nccl-tests with NCCL_DEBUG=INFO prints about 150 lines per rank, so a
# 1,024-GPU run is some 150,000. Every line costs a pass of the loop below whatever it holds (a
# file of empty lines is the cheapest way to make millions), so the count is bounded too.
MAX_LINES = 400_000

# Free of nested quantifiers, like the scanner's: linear on any line.
_NCCL_LOG = re.compile(r"\bNCCL (?:INFO|WARN|TRACE|ERROR)\b")


def parse_nccl_tests_text(
    text: str,
    source: str = "<text>",
    *,
    collective_hint: str | None = None,
    nic_aggregate_gb_s: float | None = None,
    nodes: NodeCount | None = None,
) -> list[NcclTestsRun]:
    """Every usable run in a nccl-tests text log, in file order; raises EvidenceParseError only
    (see `read_nccl_tests_text` for what was set aside)."""
    return read_nccl_tests_text(
        text,
        source,
        collective_hint=collective_hint,
        nic_aggregate_gb_s=nic_aggregate_gb_s,
        nodes=nodes,
    )[0]


def read_nccl_tests_text(
    text: str,
    source: str = "<text>",
    *,
    collective_hint: str | None = None,
    nic_aggregate_gb_s: float | None = None,
    nodes: NodeCount | None = None,
) -> tuple[list[NcclTestsRun], list[Skipped]]:
    """Every usable run in a nccl-tests text log, in file order, and what was set aside (a table
    with an unreadable line, text after a table) with its line; raises EvidenceParseError only
    when no table is usable, or a file-wide limit is passed.

    `collective_hint` names the test when the log lacks the command line; `nic_aggregate_gb_s`
    (per node, GB/s) enables the 2-node busbw_above_nic_aggregate check; `nodes` is the node
    count known from outside (the bid), used when the log's rank list and launcher line are silent.
    """
    scanner = Scanner(source)
    ends_cut = not text.endswith("\n")
    for lineno, line, last in numbered_lines(text):
        if lineno > MAX_LINES:
            raise EvidenceParseError(
                source,
                lineno,
                f"more than {MAX_LINES:,} lines: longer than any nccl-tests log (about 150 "
                "lines per GPU with NCCL_DEBUG=INFO); attach the output of the run itself",
            )
        if len(line) > MAX_LINE_CHARS:
            raise EvidenceParseError(
                source,
                lineno,
                f"line is {len(line)} characters long (limit {MAX_LINE_CHARS}): not nccl-tests "
                "output",
            )
        body = unwrap(line)
        if not body:
            continue
        first = body[0]
        try:  # a problem line sets aside its table only; the loop is inlined: it runs per line
            if "NCCL INFO" in body:
                scanner.nccl_info(body)
            elif first == "#":
                scanner.comment(lineno, body[1:].strip())
            elif ascii_int(first) and not _NCCL_LOG.search(body):
                tokens = body.split()
                # Outside a table, digits start a row only if the type column reads like one.
                if scanner.in_table or (len(tokens) > 2 and tokens[2] in TYPE_BYTES):
                    scanner.row(lineno, tokens, cut_off=ends_cut and last)
            elif "_perf" in body and not _NCCL_LOG.search(body):
                scanner.program_mention(
                    body, scanner.run if scanner.run and scanner.run.is_empty() else None
                )
        except TableProblem as problem:
            scanner.skip_table(problem)
    return _finish(scanner, text, collective_hint, nic_aggregate_gb_s, nodes)


def _finish(
    scanner: Scanner,
    text: str,
    collective_hint: str | None,
    nic_aggregate_gb_s: float | None,
    nodes: NodeCount | None,
) -> tuple[list[NcclTestsRun], list[Skipped]]:
    """Judge every table kept; refuse only when none is usable, naming the first problem met."""
    source = scanner.source
    runs = [raw for raw in scanner.runs if not raw.is_empty()]
    if not any(raw.rows for raw in runs):
        if scanner.first_problem is not None:
            first, more = scanner.first_problem, scanner.problems - 1
            also = f" ({more} more table(s) set aside too)" if more else ""
            raise EvidenceParseError(source, first.lineno, first.problem + also)
        if scanner.saw_avg_line:
            raise EvidenceParseError(
                source,
                None,
                "only the '# Avg bus bandwidth' summary, no per-size result rows: "
                "that average depends on the size sweep and cannot be scored; attach the full "
                "output",
            )
        raise EvidenceParseError(
            source,
            None,
            "no nccl-tests result rows found (rows such as "
            "'1073741824  268435456  float  sum  -1  6759.0  158.86  297.86  0 ...'): "
            "is this nccl-tests output?",
        )
    from_launcher = launch_nodes(text)
    for raw in runs:
        raw.launch_nodes = from_launcher
        raw.given_nodes = nodes
    skipped = scanner.skipped
    if scanner.skips > len(skipped):
        skipped = skipped + [
            Skipped(
                skipped[-1].line, f"and {scanner.skips - len(skipped):,} more line(s) set aside"
            )
        ]
    return [finish_run(raw, collective_hint, nic_aggregate_gb_s) for raw in runs], skipped
