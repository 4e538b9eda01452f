"""Hostile nccl-tests input (issue 18): huge files refused before parsing, non-ASCII digits never crash.

Each nccl-tests reader of the app (CLI, wizard evidence page, drag-and-drop) goes through
load_evidence_bytes, so one limit is checked here for all three.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from clusterbid.core.errors import InputError
from clusterbid.core.evidence import (
    EvidenceParseError,
    load_evidence_bytes,
    parse_nccl_tests_json,
    parse_nccl_tests_text,
)
from clusterbid.core.evidence.reading import MAX_EVIDENCE_BYTES
from clusterbid.core.store.artefacts import MAX_ARTEFACT_BYTES

HEADER = (
    "#       size         count      type   redop    root     time   algbw   busbw #wrong     time "
    "  algbw   busbw #wrong"
)
# One row in nccl-tests' layout: 1 GiB of floats is 2**30 / 4 = 268435456 elements.
ROW = (
    "  1073741824     268435456     float     sum      -1   6759.0  158.86  297.86      0   6759.0 "
    " 158.86  297.86      0"
)
# Characters for which str.isdigit() is True but int() refuses (superscripts, circled digits).
NOT_INT_DIGITS = [
    chr(c) for c in range(0x80, 0x3000) if chr(c).isdigit() and not chr(c).isdecimal()
]

PUBLIC_LOG = (
    Path(__file__).parents[2] / "data" / "nccl-tests" / "public" / "all_reduce_2x8xH100_tcpxo.log"
)


# `clusterbid evidence parse FILE` in a fresh interpreter, reporting its own CPU seconds and its own
# peak memory: VmHWM, the high-water mark of this process's memory since exec (ru_maxrss would
# carry over the forking pytest's peak on Linux).
_PROBE = """
import re, resource, sys
from clusterbid.cli import main
try:
    code = main(["evidence", "parse", sys.argv[1]])
except SystemExit as exc:
    code = exc.code
usage = resource.getrusage(resource.RUSAGE_SELF)
peak = re.search(r"VmHWM:\\s+(\\d+) kB", open("/proc/self/status").read())[1]
print(code, usage.ru_utime + usage.ru_stime, peak, file=sys.stderr)
"""


def _cli_parse(path: Path) -> tuple[int, str, float, float]:
    """(exit code, stderr, CPU seconds, peak MiB) of the probe: CPU time and memory, not the
    clock, so the load of a shared machine changes them little."""
    done = subprocess.run(
        [sys.executable, "-c", _PROBE, str(path)],
        capture_output=True,
        text=True,
        timeout=300,
        env=os.environ | {"QT_QPA_PLATFORM": "offscreen"},
    )
    *message, probe = done.stderr.strip().splitlines()
    code, cpu, peak_kib = probe.split()
    return int(code), "\n".join(message), float(cpu), int(peak_kib) / 1024


def _parse_cost(path: Path) -> tuple[int, str, float, float]:
    """As _cli_parse, the CPU seconds less those of the same command on a real 6 KB log (the
    interpreter's start and the imports), run beside it."""
    code, stderr, cpu, peak = _cli_parse(path)
    baseline = min(_cli_parse(PUBLIC_LOG)[2] for _ in range(2))
    return code, stderr, cpu - baseline, peak


def test_superscripts_are_what_the_fuzz_targets() -> None:
    assert "\u00b2" in NOT_INT_DIGITS
    with pytest.raises(ValueError):
        int("\u00b2")  # the crash of issue 18: str.isdigit() accepted it, int() did not


def test_superscript_as_root_is_a_clear_refusal() -> None:
    row = ROW.replace("      -1 ", "      \u00b2 ")
    text = f"{HEADER}\n{row}\n"
    with pytest.raises(EvidenceParseError, match=r"line 2: root is not a whole number: '\u00b2'"):
        parse_nccl_tests_text(text, "sup.log")


def test_superscript_prose_line_is_ignored_as_non_row_text() -> None:
    text = (
        f"{HEADER}\n{ROW}\n\u00b2 see the footnote: bandwidth in GB/s\n# Out of bounds values : 0 "
        "OK\n"
    )
    (run,) = parse_nccl_tests_text(text, "footnote.log")
    assert [row.size_bytes for row in run.rows] == [2**30]
    assert run.rows[0].out_of_place.busbw_gb_s == 297.86


def test_superscript_count_after_out_of_bounds_is_refused() -> None:
    text = f"{HEADER}\n{ROW}\n# Out of bounds values : \u00b2 OK\n"
    with pytest.raises(
        EvidenceParseError, match="line 3: '# Out of bounds values' is not followed by a count"
    ):
        parse_nccl_tests_text(text, "oob.log")


def test_superscript_size_in_json_is_refused() -> None:
    doc = {"results": [{"size": "\u00b2", "count": 1}]}
    with pytest.raises(EvidenceParseError):
        parse_nccl_tests_json(json.dumps(doc), "sup.json")


@settings(
    max_examples=600, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=st.data())
def test_unicode_digits_in_real_log_only_raise_parse_error(
    real_log_bytes: bytes, data: st.DataObject
) -> None:
    lines = real_log_bytes.decode("utf-8").split("\n")
    for _ in range(data.draw(st.integers(1, 3))):
        index = data.draw(st.integers(0, len(lines) - 1))
        tokens = lines[index].split(" ")
        at = data.draw(st.integers(0, len(tokens) - 1))
        digit = data.draw(
            st.sampled_from(NOT_INT_DIGITS + ["\u0662", "\uff11"])
        )  # also Arabic-Indic, fullwidth
        where = data.draw(st.integers(0, len(tokens[at])))
        tokens[at] = tokens[at][:where] + digit + tokens[at][where:]
        lines[index] = " ".join(tokens)
    try:
        parse_nccl_tests_text("\n".join(lines), "fuzz.log")
    except EvidenceParseError as exc:
        assert str(exc).startswith("fuzz.log")


_JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats()
    | st.text(max_size=8)
    | st.sampled_from(NOT_INT_DIGITS[:20] + ["  -1", "1e400", "N/A"]),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(
            st.sampled_from(
                [
                    "results",
                    "size",
                    "count",
                    "type",
                    "redop",
                    "root",
                    "time",
                    "algBw",
                    "busBw",
                    "wrong",
                    "name",
                    "nranks",
                    "inPlace",
                    "outOfPlace",
                    "config",
                ]
            ),
            inner,
            max_size=5,
        )
    ),
    max_leaves=30,
)


@settings(max_examples=800, deadline=None)
@given(doc=_JSON_VALUES)
def test_nccl_json_reader_only_raises_parse_error(doc: object) -> None:
    try:
        parse_nccl_tests_json(json.dumps(doc), "fuzz.json")
    except EvidenceParseError as exc:
        assert str(exc).startswith("fuzz.json")


def _sparse(path: Path, size: int) -> Path:
    with open(path, "wb") as handle:
        handle.truncate(size)  # sparse: the test costs no disk, the reader sees the full size
    return path


def test_one_limit_for_every_reader_below_the_artefact_limit(tmp_path: Path) -> None:
    # A file above the evidence limit is refused before it is read, by every entry point; every
    # file under it can be kept in a document.
    from clusterbid.gui.nccl_log import read_log as drop_read_log
    from clusterbid.gui.wizard.evidence_worker import read_log as wizard_read_log

    assert MAX_EVIDENCE_BYTES == 16 * 2**20 < MAX_ARTEFACT_BYTES
    over = _sparse(tmp_path / "over.log", MAX_EVIDENCE_BYTES + 1)
    with pytest.raises(
        EvidenceParseError, match="over.log: 16,777,217 bytes is larger than the 16 MiB limit"
    ):
        load_evidence_bytes(over)
    with pytest.raises(InputError, match="over.log: .*16 MiB limit for an evidence file"):
        drop_read_log(over)
    with pytest.raises(InputError, match="over.log: .*16 MiB limit for an evidence file"):
        wizard_read_log(over, "provider", None)
    at_limit = _sparse(tmp_path / "at.log", MAX_EVIDENCE_BYTES)
    assert len(load_evidence_bytes(at_limit)) == 16 * 2**20


def test_200_mb_log_is_refused_without_being_read(tmp_path: Path) -> None:
    code, stderr, cpu, peak_mib = _parse_cost(_sparse(tmp_path / "huge.log", 200 * 10**6))
    assert code == 2
    assert "huge.log: 190.7 MiB is larger than the 16 MiB limit for an evidence file" in stderr
    assert cpu < 1.0 and peak_mib < 100


def _write(path: Path, head: str, unit: str, size: int, tail: str = "") -> Path:
    with path.open("w", encoding="utf-8") as out:
        out.write(head)
        block = unit * (1_000_000 // len(unit))
        written = len(head) + len(tail)
        while written + len(block) <= size:
            out.write(block)
            written += len(block)
        out.write(unit * ((size - written) // len(unit)) + tail)
    return path


# What a 1,000-GPU run with NCCL_DEBUG=INFO prints most: a channel's connection over the network.
INFO = (
    "node0017:81234:81301 [3] NCCL INFO Channel 07/0 : 131[3] -> 139[3] [send] via "
    "NET/IB/3/GDRDMA\n"
)


def test_an_info_log_at_the_limit_is_read_in_under_a_second_and_100_mb(tmp_path: Path) -> None:
    """Issue 32: a 48 MiB log took 50 s and 1.8 GB; the largest file accepted now is bounded."""
    log = _write(
        tmp_path / "info.log",
        "# nccl-tests version 2.13.8\n",
        INFO,
        MAX_EVIDENCE_BYTES,
        f"{HEADER}\n{ROW}\n# Avg bus bandwidth    : 297.86\n",
    )
    assert (
        MAX_EVIDENCE_BYTES - len(INFO) < log.stat().st_size <= MAX_EVIDENCE_BYTES
    )  # within a line of it
    code, stderr, cpu, peak_mib = _parse_cost(log)
    assert code == 0, stderr
    assert cpu < 1.0 and peak_mib < 100, (cpu, peak_mib)


@pytest.mark.parametrize("kind", ["rows", "empty lines"])
def test_a_file_of_endless_rows_or_lines_is_refused_at_the_bound_naming_the_line(
    tmp_path: Path, kind: str
) -> None:
    if kind == "rows":  # each a validated model: the bound on result rows
        log, expected = (
            _write(tmp_path / "rows.log", HEADER + "\n", ROW + "\n", MAX_EVIDENCE_BYTES),
            ("rows.log line 4098: more than 4,096 result rows in one file"),
        )
    else:  # the cheapest way to make millions of lines: the bound on lines
        log, expected = (
            _write(tmp_path / "empty.log", "", "\n", MAX_EVIDENCE_BYTES),
            ("empty.log line 400001: more than 400,000 lines"),
        )
    code, stderr, cpu, peak_mib = _parse_cost(log)
    assert code == 2 and expected in stderr, stderr
    assert cpu < 1.0 and peak_mib < 100, (cpu, peak_mib)


def test_a_table_over_2_mib_is_refused_before_it_is_parsed(tmp_path: Path) -> None:
    rows = ",".join(json.dumps({"size": 8, "count": 2}) for _ in range(120_000))
    table = tmp_path / "results.json"
    table.write_text('{"results": [' + rows + "]}", encoding="utf-8")
    code, stderr, cpu, peak_mib = _parse_cost(table)
    assert (
        code == 2
        and "results.json: 2.7 MiB is larger than the 2 MiB limit for a nccl-json file" in stderr
    )
    assert cpu < 1.0 and peak_mib < 100
