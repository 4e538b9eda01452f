"""Issue 38: a serving benchmark is attached to an existing serving bid from the serving window,
through the same operation as `clusterbid serving-evidence attach`; the result and any refusal
are said in words (the bid by provider and GPU model, never its id), and nothing is half-written."""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

import pytest
from PySide6.QtWidgets import QDialog
from tests.conftest import EXAMPLES
from tests.gui.conftest import wait_for_serving_scores
from tests.gui.test_no_codes_where_officers_read import COMMAND_HINT, _codes

from clusterbid.core.documents import read_evaluation
from clusterbid.core.store import EvaluationDocument, verify_audit_chain
from clusterbid.gui import serving_benchmark
from clusterbid.gui.serving_window import ServingWindow

sys.path.insert(
    0, str(Path(__file__).parents[1] / "core" / "serving")
)  # as its own tests import it
from test_serving_readers import VLLM_JSON  # noqa: E402  (a real vLLM result, shared)


@pytest.fixture
def serving(qtbot, tmp_path):
    path = tmp_path / "serving.clusterbid"
    EvaluationDocument.create(
        path, read_evaluation(EXAMPLES / "demo-serving-evaluation.json"), user="test"
    ).close()
    shown = ServingWindow(EvaluationDocument.open(path))
    qtbot.addWidget(shown)
    wait_for_serving_scores(qtbot, shown)
    return shown


def _select(window, bid_id: str) -> None:
    window.table.selectRow(window.table.bid_ids.index(bid_id))


def _answer_the_run(monkeypatch, gpus: int, measured_by: str, asked: list) -> None:
    def fake_exec(dialog) -> int:
        if dialog.property("answered"):  # shown again after a refusal: the officer cancels
            return QDialog.DialogCode.Rejected
        dialog.setProperty("answered", True)
        asked.append(dialog.windowTitle())
        dialog.gpus.setValue(gpus)
        dialog.measured_by.setCurrentIndex(dialog.measured_by.findData(measured_by))
        return QDialog.DialogCode.Accepted

    monkeypatch.setattr(serving_benchmark.ServingRunDialog, "exec", fake_exec)


def test_a_benchmark_is_attached_to_the_selected_bid_and_said_in_words(
    qtbot, serving, dialog_log, monkeypatch, tmp_path
):
    run = tmp_path / "vllm.json"
    run.write_text(VLLM_JSON, encoding="utf-8")
    asked: list = []
    _answer_the_run(monkeypatch, 4, "buyer", asked)
    _select(serving, "quarry-h100")
    dialog_log.answers.append(str(run))
    serving.actions_.attach_benchmark.trigger()
    assert asked == ["Attach vllm.json"]
    (item,) = next(b for b in serving.session.evaluation.bids if b.id == "quarry-h100").evidence
    # the bytes kept are the file's, graded as the buyer's own measurement on a 4-GPU replica
    assert item.artefact_sha256 == hashlib.sha256(run.read_bytes()).hexdigest()
    assert (item.grade.value, item.scale_gpus, item.batch_size) == ("measured_independent", 4, 256)
    said = serving.statusBar().currentMessage()
    assert said.startswith("Attached vllm.json to Quarry GPU, H100-SXM: ")
    # The run's 205/197-token requests and 76 ms per token differ from the 1,000/600 service at
    # 30 ms (the CLI prints the same three notes): shown where the officer reads them.
    ((kind, title, text),) = dialog_log.shown
    assert (kind, title, text.count("Note:")) == ("info", "Benchmark attached", 3)
    assert "quarry-h100" not in said + text and _codes([("attach", said + text)]) == []
    assert COMMAND_HINT.findall(said + text) == []
    path = serving.document.path
    assert [r.action for r in serving.document.audit_rows()][-2:] == [
        "attach_artefact",
        "replace_bid",
    ]
    assert verify_audit_chain(path).ok
    wait_for_serving_scores(qtbot, serving)  # scored again with the measured throughput
    # One undo step takes the evidence off the bid again.
    serving.session.undo_stack.undo()
    assert next(b for b in serving.session.evaluation.bids if b.id == "quarry-h100").evidence == ()


def test_a_file_that_is_no_benchmark_is_refused_in_words_and_nothing_changes(
    serving, dialog_log, monkeypatch, tmp_path
):
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"output_throughput": "fast"}), encoding="utf-8")
    _answer_the_run(monkeypatch, 4, "provider", [])
    _select(serving, "helio-h200")
    before, rows = serving.session.evaluation, len(serving.document.audit_rows())
    dialog_log.answers.append(str(bad))
    serving.actions_.attach_benchmark.trigger()
    ((kind, title, text),) = dialog_log.shown
    assert (kind, title) == ("problem", "The benchmark was not attached") and "bad.json" in text
    assert serving.session.evaluation == before and len(serving.document.audit_rows()) == rows
    assert serving.session.undo_stack.count() == 0
    # The same file twice is refused by the document, naming the bid in words.
    run = tmp_path / "vllm.json"
    run.write_text(VLLM_JSON, encoding="utf-8")
    for _ in range(2):
        dialog_log.answers.append(str(run))
        serving.actions_.attach_benchmark.trigger()
    kind, title, text = dialog_log.shown[-1]
    assert (
        kind == "problem" and "Helio Inference Cloud, H200-SXM" in text and "helio-h200" not in text
    )


def test_nothing_is_asked_without_a_selected_bid(serving, dialog_log):
    serving.table.clearSelection()
    serving.table.setCurrentCell(-1, -1)
    serving.actions_.attach_benchmark.trigger()
    assert dialog_log.asked == [] and "Select a bid first" in serving.statusBar().currentMessage()


def test_the_attach_is_written_on_the_commit_lane_not_the_window_thread(
    serving, dialog_log, monkeypatch, tmp_path
):
    """Issue 33: like every other edit, the attach goes through the session's commit lane; the
    window's thread reads and writes nothing of the document for it."""
    import threading

    from clusterbid.operations import serving_evidence

    real, threads = serving_evidence.attach_serving_evidence, []

    def recorded(*args, **kwargs):
        threads.append(threading.current_thread())
        return real(*args, **kwargs)

    monkeypatch.setattr(serving_evidence, "attach_serving_evidence", recorded)
    run = tmp_path / "vllm.json"
    run.write_text(VLLM_JSON, encoding="utf-8")
    _answer_the_run(monkeypatch, 8, "provider", [])
    _select(serving, "quarry-h100")
    dialog_log.answers.append(str(run))
    serving.actions_.attach_benchmark.trigger()
    assert len(threads) == 1 and threads[0] is not threading.main_thread()
    (item,) = next(b for b in serving.session.evaluation.bids if b.id == "quarry-h100").evidence
    assert item.artefact_sha256 == hashlib.sha256(run.read_bytes()).hexdigest()
    # A refusal on the lane (the same file again) is said in words and leaves the lane taking
    # edits: the next edit, an undo of the attach, is committed and takes the evidence off.
    dialog_log.answers.append(str(run))
    serving.actions_.attach_benchmark.trigger()
    assert dialog_log.shown[-1][:2] == ("problem", "The benchmark was not attached")
    assert serving.session.undo_stack.count() == 1
    serving.session.undo_stack.undo()
    serving.session.lane.settle()
    assert next(b for b in serving.document.evaluation.bids if b.id == "quarry-h100").evidence == ()
