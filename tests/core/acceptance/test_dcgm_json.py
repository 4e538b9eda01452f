"""Issue 39: DCGM diagnostics returned as the JSON `dcgmi diag -r 3 -j` prints. The files under
tests/data/dcgm/*.json are made by hand in the structure NVIDIA's own source gives it
(github.com/NVIDIA/DCGM: dcgmi/Diag.cpp writes it, nvvs/include/NvvsJsonStrings.h names its
keys, testing/python3/dcgm_diag_schema.json is NVIDIA's schema): diag_r3_pass.json and
diag_r3_memory_bandwidth_fail.json in DCGM 4's shape ("DCGM Diagnostic", results per
entity_group/entity_id, a test_summary, plugin names such as "targeted_stress"), and
diag_r3_v3_diagnostic_fail.json in DCGM 3.3's ("DCGM GPU Diagnostic", "gpu_id" strings, display
names, one result per deployment check). Each holds 8 GPUs; the failing ones fail one GPU."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from tests.core.acceptance.test_node_logs import NODES, PASS, _line, _nodes, _status
from tests.core.acceptance.test_node_logs_fuzz import BUDGET
from tests.core.acceptance.test_results import _demo
from tests.core.test_fuzz_every_reader import _mutate

from clusterbid.core.acceptance.dcgm_json import MAX_BYTES, MAX_TESTS, read_dcgm_diag
from clusterbid.core.errors import InputError
from clusterbid.core.store import EvaluationDocument

DCGM = Path(__file__).parents[2] / "data" / "dcgm"
PASS_JSON = (DCGM / "diag_r3_pass.json").read_bytes()
BW_FAIL_JSON = (DCGM / "diag_r3_memory_bandwidth_fail.json").read_bytes()
V3_FAIL_JSON = (DCGM / "diag_r3_v3_diagnostic_fail.json").read_bytes()


def test_dcgm_4_json_reads_as_its_seven_tests_in_words():
    report = read_dcgm_diag(PASS_JSON, "n.json")
    assert [(t.section, t.name) for t in report.tests] == [
        ("Deployment", "Software"),
        ("Integration", "PCIe"),
        ("Hardware", "GPU Memory"),
        ("Hardware", "Diagnostic"),
        ("Stress", "Targeted Stress"),
        ("Stress", "Targeted Power"),
        ("Stress", "Memory Bandwidth"),
    ]
    assert report.failed == () and report.missing_level_3 == ()


def test_a_failing_gpu_is_named_with_dcgms_own_warning():
    (failed,) = read_dcgm_diag(BW_FAIL_JSON, "n.json").failed
    assert (failed.name, failed.result) == ("Memory Bandwidth", "fail")
    # DCGM's message names the GPU itself; said once.
    assert (
        failed.detail == "GPU 3: Memory bandwidth of 1810.2 GB/s is below the minimum of 2000 GB/s"
    )
    (failed,) = read_dcgm_diag(V3_FAIL_JSON, "n.json").failed
    assert (failed.section, failed.name) == ("Hardware", "Diagnostic")
    assert failed.detail == "GPU 5: Thermal violations totaling 12.4 seconds"
    # DCGM 3.3's nine deployment checks, one result each, all read.
    assert len(read_dcgm_diag(V3_FAIL_JSON, "n.json").tests) == 9 + 6


def test_a_failure_only_the_summary_reports_still_fails():
    # DCGM 4 reports errors tied to no GPU in the test's summary alone.
    document = json.loads(PASS_JSON)
    test = document["DCGM Diagnostic"]["test_categories"][1]["tests"][0]
    test["test_summary"] = {
        "status": "Fail",
        "warnings": [{"warning": "PCIe link replays", "error_id": 1, "error_category": 1,
                      "error_severity": 2}],
    }  # fmt: skip
    (failed,) = read_dcgm_diag(json.dumps(document).encode(), "n.json").failed
    assert (failed.name, failed.detail) == ("PCIe", "the node as a whole: PCIe link replays")


def test_a_level_one_json_is_not_counted_as_level_three():
    document = json.loads(PASS_JSON)
    document["DCGM Diagnostic"]["test_categories"] = document["DCGM Diagnostic"]["test_categories"][
        :1
    ]
    report = read_dcgm_diag(json.dumps(document).encode(), "n.json")
    assert report.missing_level_3 == ("Targeted Stress", "Targeted Power", "Memory Bandwidth")


def _json_nodes(tmp_path: Path, count: int, odd: bytes | None = None) -> list[Path]:
    folder = tmp_path / "dcgm-json"
    folder.mkdir(exist_ok=True)
    paths = []
    for n in range(count):
        path = folder / f"ACC-dcgm_node{n:03d}.json"
        path.write_bytes(odd if odd is not None and n == 17 else PASS_JSON)
        paths.append(path)
    return paths


def test_one_failing_gpu_fails_the_acceptance_test_and_shows_the_remedy(tmp_path, capsys):
    document = _demo(tmp_path, capsys)
    code, out, _ = _status(document, capsys, *_json_nodes(tmp_path, NODES, odd=BW_FAIL_JSON))
    assert code == 0
    assert "failed, measured 1 test failed or warned" in _line(out, "ACC-dcgm")
    assert "ACC-dcgm_node017.json: Memory Bandwidth reported fail GPU 3: Memory bandwidth of" in out
    assert "remedy owed: not stated in the bid: negotiate it before signature" in out
    # 72 files, one line each time: the first three named, the rest counted.
    assert (
        "Attached to ACC-dcgm: ACC-dcgm_node000.json, ACC-dcgm_node001.json, "
        "ACC-dcgm_node002.json and 69 more"
    ) in out
    assert "returned: 69 more, to ACC-dcgm_node071.json" in out
    with EvaluationDocument.open(document) as doc:
        kept = {i.name: i.media_type for i in doc.artefacts() if i.name.startswith("ACC-dcgm")}
    assert len(kept) == NODES and set(kept.values()) == {"application/json"}


def test_tables_and_json_mix_and_a_node_returned_twice_counts_once(tmp_path, capsys):
    document = _demo(tmp_path, capsys)
    tables = _nodes(tmp_path, NODES - 1)  # node000 ... node070 as printed tables
    again = _json_nodes(tmp_path, 1)  # node000 again, as JSON: still 71 nodes
    code, out, _ = _status(document, capsys, *tables, *again)
    assert code == 0 and "missing" in _line(out, "ACC-dcgm")
    assert f"{NODES - 1} of {NODES} nodes returned a level-3 table" in out
    last = tmp_path / "last" / f"ACC-dcgm_node{NODES - 1:03d}.json"
    last.parent.mkdir()
    last.write_bytes(PASS_JSON)
    code, out, _ = _status(document, capsys, last)
    assert "passed, measured 0 tests failed or warned" in _line(out, "ACC-dcgm")


def _with(path: list[str | int], value: object) -> bytes:
    document = json.loads(PASS_JSON)
    node = document
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    return json.dumps(document).encode()


CATEGORIES = ["DCGM Diagnostic", "test_categories"]
FIRST = [*CATEGORIES, 1, "tests", 0]
TOO_MANY = {"category": "Stress", "tests": [{"name": "x", "results": []}] * (MAX_TESTS + 1)}


@pytest.mark.parametrize(
    ("data", "words"),
    [
        (b"{\x00}", "holds NUL bytes"),
        (b'{"a":\n"\xff"}', "line 2: not UTF-8 text"),
        (b"{" + b" " * MAX_BYTES + b"}", "more than the 4 MiB one node's dcgmi diag JSON"),
        (b'{"DCGM Diagnostic": {\n"test_categories": [,]}}', "line 2: not valid JSON"),
        (b'{"a":' + b"[" * 100_000 + b"]" * 100_000 + b"}", "JSON nested too deeply"),
        (b'{"n": ' + b"9" * 5000 + b"}", "holds a number too long"),
        (b'{"version": "4.2.3"}', 'no "DCGM Diagnostic" object'),
        (b'{"DCGM Diagnostic": []}', '"DCGM Diagnostic" must be a dict, found list'),
        (
            b'{"DCGM Diagnostic": {"runtime_error": "Unable to connect to nv-hostengine"}}',
            "\"DCGM Diagnostic\".runtime_error reads 'Unable to connect to nv-hostengine': the "
            "diagnostic did not run on this node",
        ),
        (_with(CATEGORIES, {}), '"DCGM Diagnostic".test_categories must be a list, found dict'),
        (_with(CATEGORIES, []), '"DCGM Diagnostic".test_categories lists no test results'),
        (
            _with([*FIRST, "results", 2, "status"], "Great"),
            "test_categories[1].tests[0].results[2].status reads 'Great', not Pass, Fail",
        ),
        (
            _with([*FIRST, "results", 2, "warnings"], 7),
            "test_categories[1].tests[0].results[2].warnings must be a list, found int",
        ),
        (_with([*FIRST, "name"], None), "test_categories[1].tests[0].name must be a str"),
        (_with([*CATEGORIES, 0], TOO_MANY), f"more than {MAX_TESTS} tests"),
    ],
)
def test_hostile_or_malformed_json_is_refused_naming_file_and_field(data, words):
    with pytest.raises(InputError) as caught:
        read_dcgm_diag(data, "ACC-dcgm_n1.json")
    assert str(caught.value).startswith("ACC-dcgm_n1.json") and words in str(caught.value)


def test_a_refused_json_keeps_nothing_and_the_table_still_reads(tmp_path, capsys):
    document = _demo(tmp_path, capsys)
    bad = tmp_path / "ACC-dcgm_node001.json"
    bad.write_bytes(_with([*FIRST, "results", 2, "status"], "Great"))
    good = tmp_path / "ACC-dcgm_node000.txt"
    good.write_bytes(PASS)
    code, _, err = _status(document, capsys, good, bad)
    assert code == 2 and "results[2].status reads 'Great'" in err
    with EvaluationDocument.open(document) as doc:
        assert not [i for i in doc.artefacts() if i.name.startswith("ACC-dcgm")]


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=8,
)
COMPACT = json.dumps(json.loads(BW_FAIL_JSON), separators=(",", ":"))


def _paths(node: object, path: tuple = ()) -> list[tuple]:
    """Every path into the document, the root's own first."""
    found = [path]
    if isinstance(node, dict):
        for key, child in node.items():
            found += _paths(child, (*path, key))
    elif isinstance(node, list):
        for index, child in enumerate(node):
            found += _paths(child, (*path, index))
    return found


@BUDGET
@given(seed=st.integers(0, 2**32 - 1), value=JSON_VALUES)
def test_any_field_replaced_by_any_value_is_read_or_refused_by_name(seed, value):
    document = json.loads(COMPACT)
    path = random.Random(seed).choice(_paths(document)[1:])
    node = document
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    try:
        read_dcgm_diag(json.dumps(document).encode(), "ACC-dcgm_n1.json")
    except InputError as exc:
        assert str(exc).startswith("ACC-dcgm_n1.json")


@BUDGET
@given(seed=st.integers(0, 2**32 - 1), edits=st.integers(1, 40))
def test_mutated_json_text_is_read_or_refused_by_name(seed, edits):
    text = _mutate(COMPACT, random.Random(seed), edits)
    try:
        read_dcgm_diag(text.encode(), "ACC-dcgm_n1.json")
    except InputError as exc:
        assert str(exc).startswith("ACC-dcgm_n1.json")
