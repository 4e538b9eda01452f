"""Issue 37 item 1 in the app: the serving Attach Benchmark dialog asks, under "More about the
run", for the same context `clusterbid serving-evidence attach` takes as options, in words; an
MLPerf summary (a whole-system figure) attached from it keeps the same evidence as from the CLI,
and a value that cannot be used is refused naming the field, with the dialog shown again as
typed and nothing written."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from PySide6.QtWidgets import QDialog
from tests.conftest import EXAMPLES
from tests.gui.conftest import wait_for_serving_scores
from tests.gui.test_no_codes_where_officers_read import COMMAND_HINT, _codes, _widget_texts

from clusterbid.cli import main
from clusterbid.core.documents import read_evaluation
from clusterbid.core.store import EvaluationDocument
from clusterbid.gui import serving_benchmark
from clusterbid.gui.serving_window import ServingWindow
from clusterbid.operations.serving_evidence import ServingRunOptions

sys.path.insert(0, str(Path(__file__).parents[1] / "core" / "serving"))
from test_serving_evidence_as_run import MLPERF_OFFLINE_H100  # noqa: E402  (NVIDIA's v4.1 row)

BID = "quarry-h100"  # an H100-SXM bid of the demo serving evaluation


def _document(tmp_path: Path, name: str) -> Path:
    path = tmp_path / f"{name}.clusterbid"
    evaluation = read_evaluation(EXAMPLES / "demo-serving-evaluation.json")
    EvaluationDocument.create(path, evaluation, user="test").close()
    return path


@pytest.fixture
def serving(qtbot, tmp_path):
    shown = ServingWindow(EvaluationDocument.open(_document(tmp_path, "app")))
    qtbot.addWidget(shown)
    wait_for_serving_scores(qtbot, shown)
    shown.table.selectRow(shown.table.bid_ids.index(BID))
    return shown


def _answer(monkeypatch, answers: list[dict], seen: list) -> None:
    """Each showing of the dialog takes the next answer (typed on top of what is there), or is
    cancelled when none is left; `seen` records what each showing held when it opened."""

    def fake_exec(dialog) -> int:
        run = dialog.run
        fields = run.numbers | {"model_size": run.model_size, "engine_version": run.engine_version}
        seen.append({name: edit.text() for name, edit in fields.items()})
        if not answers:
            return QDialog.DialogCode.Rejected
        answer = answers.pop(0)
        dialog.gpus.setValue(answer.pop("gpus", dialog.gpus.value()))
        dialog.measured_by.setCurrentIndex(dialog.measured_by.findData("third_party"))
        for combo in ("precision", "kv_cache_precision"):
            box = getattr(dialog.run, combo)
            box.setCurrentIndex(box.findData(answer.pop(combo, box.currentData())))
        for name, text in answer.items():
            fields[name].setText(text)
        return QDialog.DialogCode.Accepted

    monkeypatch.setattr(serving_benchmark.ServingRunDialog, "exec", fake_exec)


def _kept(evaluation, name: str):
    bid = next(b for b in evaluation.bids if b.id == BID)
    return [e for e in bid.evidence if e.artefact_name == name]


def test_an_mlperf_summary_with_its_system_gpus_keeps_what_the_cli_keeps(
    serving, dialog_log, monkeypatch, tmp_path
):
    summary = tmp_path / "mlperf-summary.txt"  # a file name of the officer's: no code
    summary.write_text(MLPERF_OFFLINE_H100, encoding="utf-8")
    cli_document = _document(tmp_path, "cli")
    args = ["serving-evidence", "attach", str(cli_document), BID, str(summary), "--gpus", "2"]
    args += [
        "--batch",
        "896",
        "--system-gpus",
        "8",
        "--precision",
        "fp8",
        "--gpu-model",
        "H100-SXM",
    ]
    args += ["--kv-cache-precision", "fp8", "--measured-by", "third_party", "--user", "test"]
    # NVIDIA's run in full: one stage, no experts, 512-token prompts, Llama-2-70B's 69B.
    args += ["--pipeline-parallel", "1", "--expert-parallel", "1", "--prompt-tokens", "512"]
    args += ["--engine-version", "4.1 closed", "--model-billions", "69"]
    assert main(args) == 0
    with EvaluationDocument.open(cli_document, user="test") as opened:
        (from_cli,) = _kept(opened.evaluation, summary.name)

    answer = {"gpus": 2, "batch": "896", "system_gpus": "8", "precision": "fp8"}
    answer |= {"kv_cache_precision": "fp8", "pipeline_parallel": "1", "expert_parallel": "1"}
    answer |= {"prompt_tokens": "512", "engine_version": "4.1 closed", "model_size": "69"}
    _answer(monkeypatch, [answer], seen := [])
    dialog_log.answers.append(str(summary))
    serving.actions_.attach_benchmark.trigger()
    (from_app,) = _kept(serving.session.evaluation, summary.name)
    assert from_app.model_dump() == from_cli.model_dump()
    # 24,524.9 tokens/s over 8 GPUs is four TP2 replicas: one replica's share, by hand.
    assert from_app.value == pytest.approx(24524.9 / 4)
    assert (from_app.batch_size, from_app.gpu_model, from_app.precision) == (896, "H100-SXM", "fp8")
    assert (from_app.model_active_params_billions, from_app.engine_version) == (69, "4.1 closed")
    assert len(seen) == 1  # attached at the first asking
    # Flagged above the model's ceiling (issue 37 item 2): said in the app's words, not a command.
    said = "\n".join(text for _, _, text in dialog_log.shown)
    assert "Flagged:" in said and COMMAND_HINT.findall(said) == [] and _codes([("", said)]) == []


def test_a_bad_model_size_is_refused_naming_the_field_and_the_dialog_keeps_what_was_typed(
    serving, dialog_log, monkeypatch, tmp_path
):
    summary = tmp_path / "mlperf-summary.txt"  # a file name of the officer's: no code
    summary.write_text(MLPERF_OFFLINE_H100, encoding="utf-8")
    before, rows = serving.session.evaluation, len(serving.document.audit_rows())
    typed = {"gpus": 2, "batch": "896", "system_gpus": "8"}
    answers = [typed | {"model_size": "seventy"}, {"model_size": "0"}]
    _answer(monkeypatch, answers, seen := [])
    dialog_log.answers.append(str(summary))
    serving.actions_.attach_benchmark.trigger()
    problems = [text for kind, _, text in dialog_log.shown if kind == "problem"]
    assert len(problems) == 2 and len(seen) == 3  # refused twice, then cancelled
    field = "The model the run served, in billions of active parameters"
    assert all(field in text for text in problems)
    assert "type a number" in problems[0] and "above 0" in problems[1]
    for text in problems:
        assert _codes([("refusal", text)]) == [] and COMMAND_HINT.findall(text) == []
    # Shown again with what was typed: the batch and system GPUs, then the refused size.
    assert seen[1] == seen[2] | {"model_size": "seventy"}
    assert (seen[2]["batch"], seen[2]["system_gpus"], seen[2]["model_size"]) == ("896", "8", "0")
    assert serving.session.evaluation == before and len(serving.document.audit_rows()) == rows


def test_a_whole_system_figure_without_its_gpus_names_the_field_not_the_option(
    serving, dialog_log, monkeypatch, tmp_path
):
    summary = tmp_path / "mlperf-summary.txt"  # a file name of the officer's: no code
    summary.write_text(MLPERF_OFFLINE_H100, encoding="utf-8")
    _answer(monkeypatch, [{"gpus": 2, "batch": "896"}], [])
    dialog_log.answers.append(str(summary))
    serving.actions_.attach_benchmark.trigger()
    ((kind, _, text),) = dialog_log.shown
    assert kind == "problem" and "GPUs in the whole system the MLPerf result ran on" in text
    assert (
        COMMAND_HINT.findall(text) == [] and _kept(serving.session.evaluation, summary.name) == []
    )


def test_the_dialog_speaks_words_and_keeps_the_common_case_two_fields(qtbot):
    dialog = serving_benchmark.ServingRunDialog("Quarry GPU, H100-SXM", "run.json", 8, "H100-SXM")
    qtbot.addWidget(dialog)
    dialog.show()
    assert not dialog.run.fields.isVisible()  # folded away until asked for
    dialog.run.toggle.setChecked(True)
    assert dialog.run.fields.isVisible()
    texts = _widget_texts(dialog)
    assert _codes(texts) == [] and [t for _, t in texts if COMMAND_HINT.search(t)] == []
    # Left empty, the run is the bid's GPU and nothing else is stated: the CLI's defaults.
    assert dialog.run.options(8, "provider") == ServingRunOptions(8, "provider", "H100-SXM")
    # The field holds no more than evidence keeps: what it shows is what is kept.
    dialog.run.engine_version.setText("v" * 100)
    assert dialog.run.options(8, "provider").engine_version == "v" * 64


@pytest.mark.parametrize("typed", ["²", "٣", "1.5", "-2", "0"])
def test_a_whole_number_field_refuses_what_int_cannot_read_in_words(typed):
    """'²' is a digit to str.isdigit() but not to int(): it reached the window as a traceback."""
    from clusterbid.core.errors import InputError
    from clusterbid.gui.serving_run_form import _whole_number

    with pytest.raises(InputError, match="type a whole number of 1 or more"):
        _whole_number(typed, "Sequences one replica ran at once")
