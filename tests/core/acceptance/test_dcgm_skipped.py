"""Issue 39, reviewer's finding: a node whose level-3 stress tests all report Skip or Not Run
ran no level-3 stress at all, so it must not count as a passing node. A level-3 test counts as
run when at least one GPU gave it a verdict (Pass, Warn or Fail); present but skipped or not run
on every GPU, it is named with words that say so and the node is left missing.

The files are the hand-made fixtures of tests/data/dcgm (DCGM 4 JSON, DCGM 3.3 JSON and the
printed table) with only the stress results edited here, so every expected word and count below
follows from the edit: 72 nodes (the demo winner's 576 GPUs at 8 a node), one of them edited."""

from __future__ import annotations

import json
from pathlib import Path

from tests.core.acceptance.test_dcgm_json import PASS_JSON, V3_FAIL_JSON, _json_nodes
from tests.core.acceptance.test_node_logs import NODES, PASS, _line, _status
from tests.core.acceptance.test_results import _demo

from clusterbid.core.acceptance.dcgm_json import read_dcgm_diag
from clusterbid.core.acceptance.node_logs import LEVEL_3_TESTS, parse_dcgm_diag

STRESS_4 = ("targeted_stress", "targeted_power", "memory_bandwidth")


def _dcgm_4(status: str, passing_gpu: int | None = None, summary: str | None = None) -> bytes:
    """The DCGM 4 pass fixture with every level-3 result set to `status` (one GPU may keep Pass)."""
    document = json.loads(PASS_JSON)
    for category in document["DCGM Diagnostic"]["test_categories"]:
        for test in category["tests"]:
            if test["name"] not in STRESS_4:
                continue
            for result in test["results"]:
                if result["entity_id"] != passing_gpu:
                    result["status"] = status
            test["test_summary"] = {"status": summary or status}
    return json.dumps(document).encode()


def _dcgm_3(status: str, passing_gpu: str | None = None) -> bytes:
    """The DCGM 3.3 fixture with its Diagnostic failure passed and its stress results edited."""
    document = json.loads(V3_FAIL_JSON)
    for category in document["DCGM GPU Diagnostic"]["test_categories"]:
        for test in category["tests"]:
            for result in test["results"]:
                if test["name"] == "Diagnostic":
                    result.pop("warnings", None)
                    result["status"] = "Pass"
                elif test["name"] in LEVEL_3_TESTS and result["gpu_id"] != passing_gpu:
                    result["status"] = status
    return json.dumps(document).encode()


def test_every_stress_result_skipped_is_level_3_not_run_in_both_json_shapes():
    for data in (_dcgm_4("Skip"), _dcgm_3("Skip")):
        report = read_dcgm_diag(data, "n.json")
        assert report.missing_level_3 == () and report.failed == ()
        assert report.skipped_level_3 == tuple((name, "skip") for name in LEVEL_3_TESTS)
    # Not Run everywhere reads as not run, not as skipped.
    report = read_dcgm_diag(_dcgm_4("Not Run"), "n.json")
    assert report.skipped_level_3 == tuple((name, "not run") for name in LEVEL_3_TESTS)


def test_one_pass_among_skips_is_a_run_in_both_json_shapes():
    for data in (_dcgm_4("Skip", passing_gpu=5), _dcgm_3("Skip", passing_gpu="5")):
        report = read_dcgm_diag(data, "n.json")
        assert report.skipped_level_3 == () and report.failed == ()


def test_a_summary_pass_over_skipped_or_absent_gpus_is_not_a_run():
    # DCGM 4's test_summary alone, with no GPU having run the test, is no evidence of a run.
    report = read_dcgm_diag(_dcgm_4("Skip", summary="Pass"), "n.json")
    assert [name for name, _ in report.skipped_level_3] == list(LEVEL_3_TESTS)
    document = json.loads(PASS_JSON)
    stress = document["DCGM Diagnostic"]["test_categories"][3]["tests"]
    assert stress[0]["name"] == "targeted_stress"
    stress[0]["results"] = []
    report = read_dcgm_diag(json.dumps(document).encode(), "n.json")
    assert report.skipped_level_3 == (("Targeted Stress", "not run"),)


def test_the_printed_table_follows_the_same_rule():
    text = PASS.decode()
    for name in LEVEL_3_TESTS:
        row = next(x for x in text.splitlines() if x.startswith(f"| {name} "))
        text = text.replace(row, row.replace("Pass - All", "Skip - All  "))
    report = parse_dcgm_diag(text.encode(), "n.txt")
    assert report.skipped_level_3 == tuple((name, "skip") for name in LEVEL_3_TESTS)
    one_ran = text.replace(
        "| Targeted Power            | Skip", "| Targeted Power            | Pass"
    )
    assert [n for n, _ in parse_dcgm_diag(one_ran.encode(), "n.txt").skipped_level_3] == [
        "Targeted Stress",
        "Memory Bandwidth",
    ]


def test_a_node_that_skipped_level_3_is_named_and_not_counted(tmp_path, capsys):
    document = _demo(tmp_path, capsys)
    nodes = _json_nodes(tmp_path, NODES, odd=_dcgm_4("Skip"))
    code, out, _ = _status(document, capsys, *nodes)
    assert code == 0 and "missing" in _line(out, "ACC-dcgm")
    assert f"{NODES - 1} of {NODES} nodes returned a level-3 table" in out
    for name in LEVEL_3_TESTS:
        assert (
            f"ACC-dcgm_node017.json: {name} was skipped on every GPU: level 3 not run, not counted"
        ) in out
    # The same node returned again with one GPU passing every stress test completes the set.
    again = tmp_path / "again" / "ACC-dcgm_node017.json"
    again.parent.mkdir()
    again.write_bytes(_dcgm_4("Skip", passing_gpu=0))
    code, out, _ = _status(document, capsys, again)
    assert code == 0
    assert "passed, measured 0 tests failed or warned" in _line(out, "ACC-dcgm")
    assert "was skipped on every GPU" not in out


def test_a_dcgm_3_node_not_run_is_named_in_words(tmp_path: Path, capsys):
    document = _demo(tmp_path, capsys)
    path = tmp_path / "ACC-dcgm_node000.json"
    path.write_bytes(_dcgm_3("Not Run"))
    code, out, _ = _status(document, capsys, path)
    assert code == 0 and "missing" in _line(out, "ACC-dcgm")
    assert "Memory Bandwidth was not run on any GPU: level 3 not run, not counted" in out
    assert f"0 of {NODES} nodes returned a level-3 table" in out
