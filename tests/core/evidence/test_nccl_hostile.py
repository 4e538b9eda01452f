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

HEADER = "#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong"
# One row in nccl-tests' layout: 1 GiB of floats is 2**30 / 4 = 268435456 elements.
ROW = "  1073741824     268435456     float     sum      -1   6759.0  158.86  297.86      0   6759.0  158.86  297.86      0"
# Characters for which str.isdigit() is True but int() refuses (superscripts, circled digits).
NOT_INT_DIGITS = [chr(c) for c in range(0x80, 0x3000) if chr(c).isdigit() and not chr(c).isdecimal()]

# Measures the CLI refusing a file from a fresh interpreter: CPU time and peak RSS. VmHWM (KiB) is the
# peak of this process's own memory; ru_maxrss would carry over the forking pytest's peak on Linux.
_PROBE = """
import re, sys, time
from clusterbid.cli import main
start = time.process_time()  # CPU seconds inside main(): the same on a busy machine
try:
    code = main(["evidence", "parse", sys.argv[1]])
except SystemExit as exc:
    code = exc.code
elapsed = time.process_time() - start
peak = re.search(r"VmHWM:\\s+(\\d+) kB", open("/proc/self/status").read())[1]
print(code, elapsed, peak, file=sys.stderr)
"""


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
    text = f"{HEADER}\n{ROW}\n\u00b2 see the footnote: bandwidth in GB/s\n# Out of bounds values : 0 OK\n"
    (run,) = parse_nccl_tests_text(text, "footnote.log")
    assert [row.size_bytes for row in run.rows] == [2**30]
    assert run.rows[0].out_of_place.busbw_gb_s == 297.86


def test_superscript_count_after_out_of_bounds_is_refused() -> None:
    text = f"{HEADER}\n{ROW}\n# Out of bounds values : \u00b2 OK\n"
    with pytest.raises(EvidenceParseError, match="line 3: '# Out of bounds values' is not followed by a count"):
        parse_nccl_tests_text(text, "oob.log")


def test_superscript_size_in_json_is_refused() -> None:
    doc = {"results": [{"size": "\u00b2", "count": 1}]}
    with pytest.raises(EvidenceParseError):
        parse_nccl_tests_json(json.dumps(doc), "sup.json")


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_unicode_digits_in_real_log_only_raise_parse_error(real_log_bytes: bytes, data: st.DataObject) -> None:
    lines = real_log_bytes.decode("utf-8").split("\n")
    for _ in range(data.draw(st.integers(1, 3))):
        index = data.draw(st.integers(0, len(lines) - 1))
        tokens = lines[index].split(" ")
        at = data.draw(st.integers(0, len(tokens) - 1))
        digit = data.draw(st.sampled_from(NOT_INT_DIGITS + ["\u0662", "\uff11"]))  # also Arabic-Indic, fullwidth
        where = data.draw(st.integers(0, len(tokens[at])))
        tokens[at] = tokens[at][:where] + digit + tokens[at][where:]
        lines[index] = " ".join(tokens)
    try:
        parse_nccl_tests_text("\n".join(lines), "fuzz.log")
    except EvidenceParseError as exc:
        assert str(exc).startswith("fuzz.log")


_JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8)
    | st.sampled_from(NOT_INT_DIGITS[:20] + ["  -1", "1e400", "N/A"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
        st.sampled_from(["results", "size", "count", "type", "redop", "root", "time", "algBw", "busBw",
                         "wrong", "name", "nranks", "inPlace", "outOfPlace", "config"]), inner, max_size=5),
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


def test_one_limit_for_every_reader_is_the_artefact_limit(tmp_path: Path) -> None:
    # A file the store would refuse to attach is refused before it is read, by every entry point.
    from clusterbid.gui.nccl_log import read_log as drop_read_log
    from clusterbid.gui.wizard.evidence_worker import read_log as wizard_read_log

    assert MAX_EVIDENCE_BYTES == MAX_ARTEFACT_BYTES == 50 * 2**20
    over = _sparse(tmp_path / "over.log", MAX_ARTEFACT_BYTES + 1)
    with pytest.raises(EvidenceParseError, match="over.log: 50 MiB is larger than the 50 MiB limit"):
        load_evidence_bytes(over)
    with pytest.raises(InputError, match="over.log: .*50 MiB limit for an evidence file"):
        drop_read_log(over)
    with pytest.raises(InputError, match="over.log: .*50 MiB limit for an evidence file"):
        wizard_read_log(over, "provider", None)
    at_limit = _sparse(tmp_path / "at.log", MAX_ARTEFACT_BYTES)
    assert len(load_evidence_bytes(at_limit)) == 50 * 2**20


def test_200_mb_log_is_refused_in_under_a_second_and_100_mb(tmp_path: Path) -> None:
    huge = _sparse(tmp_path / "huge.log", 200 * 10**6)
    result = subprocess.run([sys.executable, "-c", _PROBE, str(huge)], capture_output=True, text=True,
                            timeout=60, env=os.environ | {"QT_QPA_PLATFORM": "offscreen"})
    *message, probe = result.stderr.strip().splitlines()
    code, elapsed, rss_kib = probe.split()
    assert int(code) == 2
    assert "huge.log: 191 MiB is larger than the 50 MiB limit for an evidence file" in "\n".join(message)
    assert float(elapsed) < 1.0  # CPU seconds inside main(), interpreter start excluded
    assert int(rss_kib) < 100 * 1024
