"""Edit > Attach Serving Benchmark… in the serving window: a benchmark file (vLLM, GenAI-Perf,
trtllm-bench, MLPerf, SGLang) kept with the selected bid and its throughput used as evidence.

The same operation as `clusterbid serving-evidence attach` (operations/serving_evidence.py),
run on the session's commit lane like every other edit, never on the window's thread: the file
is parsed before anything is written, and a refusal leaves the document as it was. The result
is said in words (the bid by its provider and GPU model), and the attach is one undo step.
"""

from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QSpinBox,
    QWidget,
)

from clusterbid.core.errors import InputError
from clusterbid.core.memo.bid_words import bid_label
from clusterbid.gui import dialogs
from clusterbid.gui.serving_run_form import RunContextForm, in_officers_words

if TYPE_CHECKING:
    from collections.abc import Callable

    from clusterbid.core.evaluation import Evaluation
    from clusterbid.core.store import EvaluationDocument
    from clusterbid.gui.serving_window import ServingWindow
    from clusterbid.gui.session import Session
    from clusterbid.operations.serving_evidence import AttachedServingEvidence

# Every serving format the readers take (resources/evidence-formats.md, "Serving benchmarks"):
# JSON (vLLM, GenAI-Perf, AIPerf, LLMPerf), SGLang's JSON lines, GenAI-Perf's CSV, and the printed
# reports (vLLM's summary, trtllm-bench, MLPerf's mlperf_log_summary.txt) as saved or piped.
BENCHMARK_FILES = "Serving benchmarks (*.json *.jsonl *.csv *.txt *.log *.out);;All files (*)"
MEASURED_BY = (
    ("The provider", "provider"),
    ("The buyer", "buyer"),
    ("A third party", "third_party"),
)
GPUS_FIELD = "GPUs of the replica it ran on"
AS_THE_FILE_SAYS = "As the file says"  # the GPUs field left at 0: the file's TP Size, else asked


class ServingRunDialog(QDialog):
    """What the file may not say: the GPUs of the one replica it ran on (left as it is: as the
    file says, else asked for, `replica_gpus` the bid's replica given as a hint), who ran it, and a reason
    to use a figure above the model's ceiling (issue 37: such a figure is flagged, not refused);
    under "More about the run", the rest of the run's context the CLI takes as options."""

    def __init__(
        self,
        bid_words: str,
        file_name: str,
        replica_gpus: int | None,
        bid_gpu_model: str,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle(f"Attach {file_name}")
        intro = QLabel(f"Attach the serving benchmark {file_name} to the bid of {bid_words}.")
        intro.setWordWrap(True)
        self.replica_gpus = replica_gpus
        self.gpus = QSpinBox()  # 0 shows as "As the file says": a TP1 report attaches as it is
        self.gpus.setRange(0, 4096)
        self.gpus.setSpecialValueText(AS_THE_FILE_SAYS)
        self.gpus.setValue(0)
        self.gpus.setToolTip(
            "Left as it is: the GPUs the file states (trtllm-bench's TP Size), else you are "
            "asked for them"
            + (f" (the bid is priced on {replica_gpus:,} per replica)" if replica_gpus else "")
            + ". Type the GPUs of one replica when the run used others."
        )
        self.measured_by = QComboBox()
        for words, value in MEASURED_BY:
            self.measured_by.addItem(words, value)
        self.reason = QLineEdit()
        self.reason.setPlaceholderText("Only if the run reads above what the model allows")
        form = QFormLayout(self)
        form.addRow(intro)
        form.addRow(f"&{GPUS_FIELD}:", self.gpus)
        form.addRow("&Measured by:", self.measured_by)
        form.addRow("&Reason to use a figure above the model:", self.reason)
        self.run = RunContextForm(bid_gpu_model)
        form.addRow(self.run)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        buttons.button(QDialogButtonBox.StandardButton.Ok).setText("Attach")
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)


def attach_serving_benchmark(window: ServingWindow) -> None:
    """Ask for the file and the run, attach it through the operation, and say what happened."""
    from clusterbid.operations.serving_evidence import (
        AttachedServingEvidence,
        attach_serving_evidence,
    )

    session = window.session
    bid_id = window.selected_bid_id()
    bid = next((b for b in session.evaluation.bids if b.id == bid_id), None)
    if bid is None:
        window.statusBar().showMessage("Select a bid first, then attach its benchmark.", 5000)
        return
    words = bid_label(bid)
    path = dialogs.open_file(window, f"Attach a serving benchmark to {words}", BENCHMARK_FILES)
    if not path:
        return
    replica = priced_replica(window, bid.id)
    dialog = ServingRunDialog(words, Path(path).name, replica, bid.capacity.gpu_model, window)
    # A refusal opens the dialog again with what was typed, until it attaches or is cancelled.
    while dialog.exec() == QDialog.DialogCode.Accepted:
        before = session.evaluation
        try:
            measured_by = str(dialog.measured_by.currentData())
            options = dialog.run.options(dialog.gpus.value() or None, measured_by, replica)
        except InputError as exc:
            outcome: object = exc
        else:
            outcome = _attach_on_the_lane(
                session,
                partial(
                    attach_serving_evidence,
                    bid_id=bid.id,
                    path=Path(path),
                    options=options,
                    use_above_model=dialog.reason.text().strip() or None,
                ),
            )
        if isinstance(outcome, AttachedServingEvidence):
            _record_and_say(window, before, outcome, words)
            return
        said = str(outcome).replace(bid.id, words).replace(path, Path(path).name)  # file by name
        said = in_officers_words(said).replace(
            ": give the GPUs of one replica",  # the run's TP Size and the GPUs typed disagree
            f': give the GPUs of one replica, or set the GPUs back to "{AS_THE_FILE_SAYS}"',
        )
        said = said.replace(": give them", f': type them in "{GPUS_FIELD}"')
        dialogs.show_problem(window, "The benchmark was not attached", said)


def priced_replica(window: ServingWindow, bid_id: str) -> int | None:
    """The GPUs of one replica the bid is priced on: the workload's TP when it sets one, else the
    one the cost model chose for this bid as last scored (None before scoring, or for a bid that
    cannot serve)."""
    stated = getattr(window.session.evaluation.workload, "tensor_parallel", None)
    if stated:
        return int(stated)
    scorecard = window.scorecard  # the window's property: the one last scored, or None
    score = next((s for s in getattr(scorecard, "scores", ()) if s.bid.id == bid_id), None)
    chosen = getattr(getattr(score, "estimate", None), "tensor_parallel", None)
    return int(chosen) if chosen and score is not None and score.rank is not None else None


def _record_and_say(
    window: ServingWindow, before: Evaluation, attached: AttachedServingEvidence, words: str
) -> None:
    """The written attach as one undo step, shown at once and said in words."""
    from clusterbid.gui.commands import ReplaceSnapshotCommand

    session = window.session
    text = f"Attach {attached.name} to {words}"
    session.undo_stack.push(ReplaceSnapshotCommand(session, before, session.evaluation, text))
    session.evaluation_changed.emit(session.evaluation)
    said = attached_words(attached, words)
    window.statusBar().showMessage(said[0], 15_000)
    if len(said) > 1:  # a flag or notes: the officer reads them, they do not scroll away
        dialogs.show_info(window, "Benchmark attached", "\n\n".join(said))


def _attach_on_the_lane(session: Session, attach: Callable[[EvaluationDocument], object]) -> object:
    """Run `attach(document)` on the session's commit lane, after every edit made before it, like
    every other write of the window (issue 33): the file is read, parsed and kept on the lane's
    thread while the window waits idle. The write never raises on the lane (a raise there would
    drop the edits queued after it until a roll-back this attach has no need of): its refusal,
    with nothing written, is returned for the window to say in words."""
    document = session.document  # every edit made so far committed first
    outcome: list[object] = []

    def write() -> None:
        try:
            outcome.append(attach(document))
        except InputError as exc:
            outcome.append(exc)
        except Exception as exc:  # noqa: BLE001 (said in words; the document is left as it was)
            outcome.append(InputError(f"the benchmark could not be saved: {exc}"))

    session.lane.submit(write).payload["behind"] = True  # not an edit the session rolls back
    session.lane.settle()
    return outcome[0]


def attached_words(attached: AttachedServingEvidence, words: str) -> list[str]:
    """What happened, in the app's words: the file, the bid, the figure; then a flag and its
    decision, then what the run says about the service."""
    from clusterbid.operations.serving_evidence import flag_decision

    evidence = attached.evidence
    lines = [f"Attached {attached.name} to {words}: {evidence.description}"]
    if attached.gpus_from:  # none were typed: where the replica's GPUs came from
        lines.append(f"GPUs: {attached.gpus_from}")
    if attached.flag:
        decided = flag_decision(attached, "not used, as no reason to use it was recorded")
        flag = attached.flag.replace(  # core names the CLI's option; the app asks in this dialog
            "(serving-evidence attach --use-above-model REASON)",
            '(typed as the "Reason to use a figure above the model" when attaching)',
        )
        lines.append(f"Flagged: {flag}. Decision: {decided}")
    lines += [f"Note: {in_officers_words(note)}" for note in attached.notes]  # no CLI options
    if attached.request:  # a file named after a request for evidence answers it
        lines.append(attached.request)
    return lines
