"""Fuzzing of the readers the other fuzz tests do not reach (issue 35, item 8): serving benchmark
files, a memo's attached inputs (parsed and re-scored, as verify does), certificate files, the
anchor log, documents with flipped bytes, and the command line's argument parsers. Whatever the
input, the result is a value or a message naming the input, never another exception (exit 70).

The example budget is small in the test run; `python tests/perf/fuzz_long.py` runs the same
targets with CLUSTERBID_FUZZ_SCALE examples per example here (default 50x).
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.core.memo_signing.memo_factory import demo_inputs

from clusterbid.cli import main
from clusterbid.core.errors import InputError
from clusterbid.core.evidence.errors import EvidenceParseError
from clusterbid.core.evidence.serving_readers import read_serving_benchmark
from clusterbid.core.memo.inputs import parse_memo_inputs, rescore_memo_inputs
from clusterbid.core.memo.trust_store import read_certificate_file
from clusterbid.core.store.anchor_check_log import read_anchor_log

SCALE = int(os.environ.get("CLUSTERBID_FUZZ_SCALE", "1"))
INTERNAL_ERROR = 70


def budget(examples: int) -> settings:
    return settings(
        max_examples=examples * SCALE,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
    )


def _mutate(text: str, rng: random.Random, edits: int) -> str:
    chars = list(text)
    alphabet = list('0123456789.,-e:"{}[] \n') + ["null", "true", "1e308", "-1", "NaN", "9" * 400]
    for _ in range(edits):
        at = rng.randrange(len(chars) + 1)
        kind = rng.choice(["insert", "delete", "replace", "truncate"])
        if kind == "truncate" and rng.random() < 0.2:
            chars = chars[:at]
        elif kind == "delete" and at < len(chars):
            del chars[at]
        elif kind == "replace" and at < len(chars):
            chars[at] = rng.choice(alphabet)
        else:
            chars.insert(at, rng.choice(alphabet))
    return "".join(chars)


VLLM_RUN = json.dumps(
    {
        "backend": "vllm",
        "model_id": "meta-llama/Llama-3.1-70B-Instruct",
        "completed": 1000,
        "total_input_tokens": 1_024_000,
        "total_output_tokens": 128_000,
        "duration": 60.5,
        "output_throughput": 2115.7,
        "mean_ttft_ms": 310.0,
        "p99_ttft_ms": 920.0,
        "mean_tpot_ms": 24.1,
        "max_concurrency": 64,
    }
)


@budget(80)
@given(st.integers(0, 2**32 - 1), st.integers(1, 6))
def test_serving_benchmark_files_are_a_run_or_a_parse_error(seed, edits):
    text = _mutate(VLLM_RUN, random.Random(seed), edits)
    try:
        read_serving_benchmark(text, "run.json")
    except EvidenceParseError as exc:
        assert str(exc).startswith("run.json")


@budget(60)
@given(st.text(max_size=300))
def test_serving_benchmark_text_of_any_shape_is_a_run_or_a_parse_error(text):
    try:
        read_serving_benchmark(text, "run.txt")
    except EvidenceParseError as exc:
        assert str(exc).startswith("run.txt")


MEMO_INPUTS = json.dumps(demo_inputs(), default=str)


@budget(25)
@given(st.integers(0, 2**32 - 1), st.integers(1, 4))
def test_a_memos_attached_inputs_parse_and_rescore_or_give_a_message(seed, edits):
    raw = _mutate(MEMO_INPUTS, random.Random(seed), edits).encode("utf-8")
    try:
        rescore_memo_inputs(parse_memo_inputs(raw))
    except InputError as exc:
        assert str(exc)


@budget(60)
@given(
    st.binary(max_size=400)
    | st.text(max_size=400).map(lambda t: ("-----BEGIN CERTIFICATE-----\n" + t).encode())
)
def test_certificate_files_are_certificates_or_a_message(tmp_path_factory, data):
    path = tmp_path_factory.mktemp("cert") / "ca.pem"
    path.write_bytes(data)
    try:
        read_certificate_file(path)
    except InputError as exc:
        assert "ca.pem" in str(exc)


ANCHOR = json.dumps(
    {
        "document": "a" * 64,
        "file": "d.clusterbid",
        "seq": 3,
        "hash": "b" * 64,
        "action": "record_memo_exported",
        "who": "ann",
        "at": "2026-11-26T00:00:00+00:00",
        "memo_sha256": None,
    }
)


@budget(60)
@given(st.integers(0, 2**32 - 1), st.integers(1, 5))
def test_anchor_logs_are_anchors_or_a_message_naming_the_line(tmp_path_factory, seed, edits):
    path = tmp_path_factory.mktemp("log") / "anchors.jsonl"
    path.write_text(
        ANCHOR + "\n" + _mutate(ANCHOR, random.Random(seed), edits) + "\n", encoding="utf-8"
    )
    try:
        read_anchor_log(path)
    except InputError as exc:
        assert "anchors.jsonl line" in str(exc)


@pytest.fixture(scope="module")
def demo_document(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("doc") / "demo.clusterbid"
    assert main(["demo", str(path)]) == 0
    return path


@budget(20)
@given(st.integers(0, 2**32 - 1))
def test_a_document_with_flipped_bytes_is_scored_audited_or_refused_never_a_crash(
    demo_document, tmp_path_factory, capsys, seed
):
    rng = random.Random(seed)
    data = bytearray(demo_document.read_bytes())
    for _ in range(rng.randint(1, 4)):
        at = rng.randrange(min(len(data), 16384))  # the header, the schema and the first rows
        data[at] ^= 1 << rng.randrange(8)
    path = tmp_path_factory.mktemp("flip") / "flipped.clusterbid"
    path.write_bytes(bytes(data))
    for verb in (["score", str(path), "--samples", "100"], ["audit", str(path)]):
        assert main(verb) in (0, 1, 2), capsys.readouterr().err
        assert "internal error" not in capsys.readouterr().err


VERBS = [
    "demo",
    "score",
    "estimate",
    "schema",
    "export-template",
    "import-bids",
    "new",
    "audit",
    "copy",
    "import",
    "export",
    "evidence",
    "serving-evidence",
    "memo",
    "sign",
    "verify",
    "trust",
    "request-evidence",
]
TOKENS = [
    "--json",
    "--samples",
    "-5",
    "0",
    "1e9",
    "--field",
    "x",
    "--p12",
    "--trust",
    "--evaluation",
    "--bid",
    "-o",
    "out.pdf",
    "nope.clusterbid",
    "nope.json",
    "--approver",
    ",",
    "--decision-date",
    "2026-02-30",
    "parse",
    "attach",
    "--gpus",
    "--run",
    "--against",
    "",
    "\x1b[31m",
    "é" * 3,
]


@budget(60)
@given(st.sampled_from(VERBS), st.lists(st.sampled_from(TOKENS), max_size=6))
def test_command_lines_of_any_shape_end_in_a_result_or_a_message(
    tmp_path_factory, monkeypatch, capsys, verb, rest
):
    monkeypatch.chdir(tmp_path_factory.mktemp("cwd"))
    monkeypatch.delenv("CLUSTERBID_P12_PASSPHRASE", raising=False)
    try:
        code = main([verb, *rest])
    except SystemExit as exc:  # argparse's usage errors: exit 2 with the usage line
        code = exc.code
    err = capsys.readouterr().err
    assert code != INTERNAL_ERROR and "internal error" not in err and "Traceback" not in err, (
        verb,
        rest,
        err,
    )
