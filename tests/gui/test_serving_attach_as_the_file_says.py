"""A tester's faults in Edit > Attach Serving Benchmark: the GPUs field always read 8, so a
trtllm-bench report of a TP1 run was refused ("the report says TP Size 1, but the run was given
as 8 GPUs"); and the file filter hid the GenAI-Perf CSV the readers take. Left as it is, the
field now means "as the file says", else the officer is asked (the replica the bid is priced on
is only a hint: taken silently, a run on another replica looked carried nowhere, a review found),
and the filter lists every serving file named in resources/evidence-formats.md."""

from __future__ import annotations

import fnmatch
import re
import sys
from pathlib import Path

import pytest
from PySide6.QtWidgets import QDialog
from tests.conftest import EXAMPLES, REPO
from tests.gui.conftest import wait_for_serving_scores

from clusterbid.core.documents import read_evaluation
from clusterbid.core.store import EvaluationDocument
from clusterbid.gui import serving_benchmark
from clusterbid.gui.serving_window import ServingWindow

sys.path.insert(0, str(Path(__file__).parents[1] / "core" / "serving"))
from test_serving_readers import VLLM_JSON  # noqa: E402  (a real vLLM result, shared)

# trtllm-bench's report as it prints it (TensorRT-LLM docs, perf-overview.md: its "WORLD +
# RUNTIME INFORMATION" block states TP Size), for a run on one GPU.
TRTLLM_TP1 = """===========================================================
= WORLD + RUNTIME INFORMATION
===========================================================
TP Size:                1
PP Size:                1
===========================================================
= PERFORMANCE OVERVIEW
===========================================================
Total Output Throughput (tokens/sec):             5530.7382
Average time-per-output-token [TPOT] (ms):        182.9639
"""
BID = "quarry-h100"


def _window(qtbot, tmp_path, tensor_parallel=None) -> ServingWindow:
    evaluation = read_evaluation(EXAMPLES / "demo-serving-evaluation.json")
    if tensor_parallel is not None:  # a service that fixes its replica at this TP
        workload = evaluation.workload.model_copy(update={"tensor_parallel": tensor_parallel})
        evaluation = evaluation.model_copy(update={"workload": workload})
    path = tmp_path / "serving.clusterbid"
    EvaluationDocument.create(path, evaluation, user="test").close()
    shown = ServingWindow(EvaluationDocument.open(path))
    qtbot.addWidget(shown)
    wait_for_serving_scores(qtbot, shown)
    shown.table.selectRow(shown.table.bid_ids.index(BID))
    return shown


def _attach(window, dialog_log, monkeypatch, path: Path, typed_gpus: int | None, seen: list):
    """Attach `path`, the GPUs left as the dialog offers them or typed; cancelled when shown
    again after a refusal."""

    def fake_exec(dialog) -> int:
        if dialog.property("answered"):
            return QDialog.DialogCode.Rejected
        dialog.setProperty("answered", True)
        seen.append((dialog.gpus.value(), dialog.gpus.text()))
        if typed_gpus is not None:
            dialog.gpus.setValue(typed_gpus)
        return QDialog.DialogCode.Accepted

    monkeypatch.setattr(serving_benchmark.ServingRunDialog, "exec", fake_exec)
    dialog_log.answers.append(str(path))
    window.actions_.attach_benchmark.trigger()


def _kept(window, name: str):
    bid = next(b for b in window.session.evaluation.bids if b.id == BID)
    return [e for e in bid.evidence if e.artefact_name == name]


def test_a_tp1_trtllm_report_attaches_at_once_with_the_gpus_left_as_offered(
    qtbot, tmp_path, dialog_log, monkeypatch
):
    window = _window(qtbot, tmp_path)
    report = tmp_path / "trtllm-tp1.txt"
    report.write_text(TRTLLM_TP1, encoding="utf-8")
    _attach(window, dialog_log, monkeypatch, report, None, seen := [])
    assert seen[0][0] == 0 and seen[0][1].startswith("As the file says")  # not 8
    (item,) = _kept(window, report.name)
    # One GPU, as the report's TP Size says: all 5,530.7382 tokens/s are that one GPU's.
    assert (item.scale_gpus, item.value) == (1, pytest.approx(5530.7382))
    ((kind, title, text),) = dialog_log.shown
    assert (kind, title) == ("info", "Benchmark attached")
    assert "GPUs: 1 GPU(s) per replica, as the file's TP Size says" in text


def test_typed_gpus_at_odds_with_the_report_are_refused_saying_how_to_take_the_files(
    qtbot, tmp_path, dialog_log, monkeypatch
):
    window = _window(qtbot, tmp_path)
    report = tmp_path / "trtllm-tp1.txt"
    report.write_text(TRTLLM_TP1, encoding="utf-8")
    _attach(window, dialog_log, monkeypatch, report, 8, [])
    ((kind, title, text),) = dialog_log.shown
    assert (kind, title) == ("problem", "The benchmark was not attached")
    assert "TP Size 1" in text and 'set the GPUs back to "As the file says"' in text
    assert _kept(window, report.name) == []


def test_a_file_that_does_not_say_its_gpus_is_asked_about_with_the_priced_replica_as_a_hint(
    qtbot, tmp_path, dialog_log, monkeypatch
):
    window = _window(qtbot, tmp_path, tensor_parallel=2)  # the service runs TP2 replicas
    run = tmp_path / "vllm.json"  # vLLM's result JSON names no TP
    run.write_text(VLLM_JSON, encoding="utf-8")
    _attach(window, dialog_log, monkeypatch, run, None, seen := [])
    assert seen[0] == (0, "As the file says")
    assert _kept(window, run.name) == []  # nothing guessed, nothing written
    text = dialog_log.shown[-1][2]
    assert "does not say how many GPUs one replica ran on" in text
    assert "the bid is priced on 2 GPU(s) per replica: type that if the run used the same" in text


def test_with_no_replica_to_fall_back_on_the_gpus_are_asked_for_by_the_fields_name(tmp_path):
    from clusterbid.core.errors import InputError
    from clusterbid.operations.serving_evidence import ServingRunOptions, read_serving_file

    run = tmp_path / "vllm.json"
    run.write_text(VLLM_JSON, encoding="utf-8")
    with pytest.raises(InputError, match="does not say how many GPUs one replica ran on"):
        read_serving_file(run, ServingRunOptions(None))
    # Given, the officer's figure wins over the replica the bid is priced on.
    assert read_serving_file(run, ServingRunOptions(4, usual_gpus=2)).evidence.scale_gpus == 4


def test_the_file_filter_shows_every_serving_file_the_formats_page_names():
    """Each file name in the formats page's serving table (`profile_export_genai_perf.csv`,
    `mlperf_log_summary.txt` ...) matches the dialog's first filter; SGLang writes JSON lines."""
    page = (REPO / "resources" / "evidence-formats.md").read_text(encoding="utf-8")
    serving = page.split("## Serving benchmarks", 1)[1].split("\n## ", 1)[0]
    names = set(re.findall(r"`([\w<>.-]+\.(?:json|jsonl|csv|txt|log))`", serving))
    names |= {"sglang-bench.jsonl", "trtllm-bench.log"}
    assert {"profile_export_genai_perf.csv", "mlperf_log_summary.txt"} <= names
    patterns = re.search(r"\(([^)]*)\)", serving_benchmark.BENCHMARK_FILES.split(";;")[0])
    assert patterns is not None
    globs = patterns.group(1).split()
    assert [n for n in sorted(names) if not any(fnmatch.fnmatch(n, g) for g in globs)] == []


def test_without_a_tp_in_the_workload_the_hint_is_the_replica_the_details_pane_shows(
    qtbot, tmp_path, dialog_log, monkeypatch
):
    """The demo service leaves its TP to the cost model, which picks one per bid: the replica
    the officer reads in the bid's Details ("Replica: tensor parallel N") is the one hinted."""
    window = _window(qtbot, tmp_path)  # the demo's tensor_parallel is null
    shown = re.search(r"Replica: tensor parallel (\d+)", window.details.toPlainText())
    assert shown is not None
    run = tmp_path / "vllm.json"
    run.write_text(VLLM_JSON, encoding="utf-8")
    _attach(window, dialog_log, monkeypatch, run, None, seen := [])
    assert seen[0] == (0, "As the file says")
    assert _kept(window, run.name) == []
    assert f"the bid is priced on {shown.group(1)} GPU(s) per replica" in dialog_log.shown[-1][2]
