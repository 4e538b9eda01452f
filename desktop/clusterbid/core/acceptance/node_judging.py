"""The DCGM and soak tests judged from their returned files (issue 39): every node's
`dcgmi diag -r 3` table (or its JSON, `-j`) must report Pass for every test, and the soak must run its hours on
every GPU offered with no more job-interrupting failures than the plan allows and no error
counter growing. What a file cannot show (a node not yet returned, a shorter soak) is named
and leaves the test missing, never passed."""

from __future__ import annotations

from collections.abc import Callable

from clusterbid.core.acceptance.dcgm_json import read_dcgm_diag
from clusterbid.core.acceptance.model import AcceptanceTest
from clusterbid.core.acceptance.node_logs import parse_soak_log
from clusterbid.core.bid import Bid

# Test id -> the reader that checks its files (each raises InputError on a file it refuses).
NODE_LOG_READERS: dict[str, Callable[[bytes, str], object]] = {
    "ACC-dcgm": read_dcgm_diag,  # the printed table or its JSON (-j), by content
    "ACC-soak": parse_soak_log,
}
NODE_LOG_FORMATS = {"ACC-dcgm": "dcgm-diag", "ACC-soak": "soak-log"}

Judged = tuple[str, float | None, list[str]]  # state, measured, notes


def _latest(files: list[tuple[str, bytes]]) -> dict[str, bytes]:
    """name -> the last bytes kept under it: a node's file returned again replaces the first."""
    return {name: data for name, data in files}


def _per_node(files: list[tuple[str, bytes]]) -> dict[str, tuple[str, bytes]]:
    """node -> (name, bytes) of its last file: a node's table and its JSON are one node, so
    'ACC-dcgm_node017.txt' returned again as 'ACC-dcgm_node017.json' replaces it."""
    return {name.removesuffix(".txt").removesuffix(".json"): (name, data) for name, data in files}


def judge_dcgm(files: list[tuple[str, bytes]], bid: Bid) -> Judged:
    nodes = -(-bid.capacity.gpus_offered // bid.capacity.gpus_per_node)
    notes: list[str] = []
    counted, failures = 0, 0
    for name, data in _per_node(files).values():
        report = read_dcgm_diag(data, name)
        if report.missing_level_3:
            notes.append(
                f"{name}: no {', '.join(report.missing_level_3)} row, so it ran below level 3: "
                "not counted"
            )
            continue
        if report.skipped_level_3:
            notes.extend(
                f"{name}: {test} was "
                + ("skipped on every GPU" if result == "skip" else "not run on any GPU")
                + ": level 3 not run, not counted"
                for test, result in report.skipped_level_3
            )
            continue
        counted += 1
        for test in report.failed:
            failures += 1
            notes.append(f"{name}: {test.name} reported {test.result} {test.detail}".rstrip())
        skipped = [t.name for t in report.tests if t.result in ("skip", "not run")]
        if skipped:
            notes.append(f"{name}: skipped {', '.join(skipped)} (not a failure)")
    if failures:
        return "fail", float(failures), notes
    if counted < nodes:
        notes.append(f"{counted} of {nodes:,} nodes returned a level-3 table; every node must")
        return "missing", None, notes
    return "pass", 0.0, notes


def judge_soak(test: AcceptanceTest, files: list[tuple[str, bytes]], bid: Bid) -> Judged:
    notes: list[str] = []
    asked, gpus = test.soak_hours or 0.0, bid.capacity.gpus_offered
    verdict: Judged | None = None
    for name, data in _latest(files).items():
        log = parse_soak_log(data, name)
        if log.hours < asked or log.gpus < gpus:
            notes.append(
                f"{name}: {log.hours:g} hours on {log.gpus:,} GPUs; the test asks {asked:g} "
                f"hours on {gpus:,}: not counted"
            )
            continue
        failures, grown = log.of("failure"), log.of("error-counter")
        for event in (*failures, *grown):
            notes.append(f"{name} line {event.line}: {event.node} {event.event}: {event.detail}")
        allowed = test.threshold if test.threshold is not None else 0.0
        state = "pass" if len(failures) <= allowed and not grown else "fail"
        if grown:
            notes.append(f"{name}: {len(grown)} error counter(s) grew; the plan allows none")
        verdict = (state, float(len(failures)), notes)  # the last complete soak stands
    return verdict or ("missing", None, notes)
