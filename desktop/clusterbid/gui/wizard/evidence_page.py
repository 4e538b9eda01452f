"""Workload evidence: attach nccl-tests logs or throughput/scaling files (parsed in the background), or type figures."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from pydantic import ValidationError
from PySide6.QtWidgets import (
    QComboBox,
    QFileDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWizardPage,
)

from clusterbid.core.bid import Fabric
from clusterbid.core.errors import InputError
from clusterbid.core.evidence.model import Evidence
from clusterbid.core.evidence.reading import FabricClaim, fabric_claim_of
from clusterbid.gui.background import BackgroundTasks
from clusterbid.gui.bid_status import EVIDENCE_WORDS
from clusterbid.gui.wizard.evidence_worker import ParsedLog, UnreadableLog, parse_file
from clusterbid.gui.wizard.figure_form import MEASURED_BY_WORDS, FigureForm
from clusterbid.gui.wizard.officer_words import GRADE_WORDS, readable
from clusterbid.gui.wizard.problems import Problem

if TYPE_CHECKING:
    from clusterbid.gui.wizard.bid_wizard import BidWizard

MEASURED_BY = {value: words for words, value in MEASURED_BY_WORDS}  # "third_party": "A third party"
# A serving benchmark needs the run's GPUs, precision and model, which its own dialog asks for.
# In place of the training words: the wizard's header shows two lines of subtitle, no more.
SERVING_SUBTITLE = (
    "Measurements behind the bid (formats: Help > Documentation, Evidence file formats). A "
    "serving benchmark (vLLM, SGLang, GenAI-Perf, LLMPerf, trtllm-bench, MLPerf) is attached once "
    "the bid is added, with Edit > Attach Serving Benchmark. Evidence is optional."
)
COLUMNS = ("Figure", "Scale", "Grade", "Measured by", "Source", "Red flags")


class EvidencePage(QWizardPage):
    """A table of the bid's evidence; rows come from attached logs or the figure form."""

    def __init__(self, host: BidWizard) -> None:
        super().__init__()
        self.host = host
        self.setTitle("Workload evidence")
        self.setSubTitle(
            SERVING_SUBTITLE
            if getattr(host.evaluation.workload, "kind", "") == "inference"
            else "Measurements behind the bid: nccl-tests logs, training-throughput or scaling "
            "files (each format: Help > Documentation, Evidence file formats). An attached "
            "file is graded as measured; a typed figure without its file is a provider's "
            "claim. Evidence is optional."
        )
        self.items: list[tuple[Evidence, tuple[tuple[str, str], ...]]] = []
        self.files_read: dict[
            str, tuple[str, bytes]
        ] = {}  # SHA-256 -> (name, bytes): kept with the bid
        # The app's one way to run work off the GUI thread; one thread, so files are read (and
        # listed) in the order they were given.
        self.tasks = BackgroundTasks(self, threads=1)
        self.tasks.busy_changed.connect(lambda _name, _running: self.completeChanged.emit())
        self._files_given = itertools.count(1)
        # Replaced in tests: a native file dialog is modal.
        self.choose_files: Callable[[], list[str]] = self._ask_for_files

        self.table = QTableWidget(0, len(COLUMNS))
        self.table.setObjectName("evidence_table")
        self.table.setHorizontalHeaderLabels(COLUMNS)
        self.table.verticalHeader().hide()
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.table.horizontalHeader().setStretchLastSection(True)
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QTableWidget.SelectionBehavior.SelectRows)
        self.table.setMinimumHeight(110)

        self.measured_by = QComboBox()
        for text, value in MEASURED_BY_WORDS:
            self.measured_by.addItem(text, value)
        attach = QPushButton("&Attach evidence files…")
        attach.setObjectName("attach_logs")
        attach.clicked.connect(lambda: self.attach_files([Path(p) for p in self.choose_files()]))
        remove = QPushButton("&Remove selected")
        remove.clicked.connect(self._remove_selected)
        self.status = QLabel()
        self.status.setObjectName("attach_status")
        self.status.setWordWrap(True)

        who = QLabel("Logs measured b&y")
        who.setBuddy(self.measured_by)
        # No grade to pick: it follows who measured (methodology section 5), so a log the
        # provider ran cannot be filed as an independent measurement.
        row = QHBoxLayout()
        row.addWidget(who)
        row.addWidget(self.measured_by)
        row.addStretch(1)
        row.addWidget(attach)
        row.addWidget(remove)
        self.form = FigureForm()
        self.form.figure_added.connect(lambda evidence: self.add(evidence, ()))
        layout = QVBoxLayout(self)
        layout.addWidget(self.table, 2)
        layout.addLayout(row)
        layout.addWidget(self.status)
        layout.addWidget(self.form, 3)

    def _ask_for_files(self) -> list[str]:
        files, _ = QFileDialog.getOpenFileNames(
            self,
            "Attach evidence",
            "",
            "Evidence (*.log *.txt *.out *.json *.md *.csv);;nccl-tests output (*.log *.txt *.out "
            "*.json *.md);;"
            "Training throughput or scaling table (*.csv *.json);;All files (*)",
        )
        return files

    def _fabric(self) -> tuple[float | None, FabricClaim | None]:
        """The fabric page's NIC aggregate (to flag 2-node busbw above it) and what the bid claims
        (RDMA, GPUDirect) to hold the log's NCCL INFO lines against; (None, None) while unfinished."""
        try:
            fabric = Fabric.model_validate(self.host.raw_bid().get("fabric", {}))
            return fabric.aggregate_gb_s, fabric_claim_of(fabric.technology, fabric.gpudirect_rdma)
        except (ValidationError, InputError):
            return None, None

    @property
    def pending(self) -> int:
        """Files given and not read yet (Next waits for them)."""
        return len(self.tasks.running())

    def attach_files(self, paths: list[Path]) -> None:
        measured_by, fabric = self.measured_by.currentData(), self._fabric()
        for path in paths:
            self.status.setText(f"Reading {path.name}…")
            self.tasks.run(
                f"evidence file {next(self._files_given)}",
                lambda _progress, path=path: parse_file(path, measured_by, *fabric),
                self._parsed,
            )
        self.completeChanged.emit()

    def _parsed(self, result: object) -> None:
        assert isinstance(result, (ParsedLog, UnreadableLog))
        if isinstance(result, UnreadableLog):
            self.status.setText(f"Not attached: {readable(result.message, {}, capitalise=False)}")
            self.status.setStyleSheet("color: #b3261e;")
            self.completeChanged.emit()
            return
        self.status.setStyleSheet("")
        flags = f", {len(result.flags)} red flag(s)" if result.flags else ", no red flags"
        first = result.items[0]
        what = (
            (f"{first.value:.2%}" if first.unit == "fraction" else f"{first.value:g} {first.unit}")
            if len(result.items) == 1
            else f"{len(result.items)} figures"
        )
        self.status.setText(f"Attached {result.name}: {what} ({GRADE_WORDS[first.grade]}{flags}).")
        for evidence in result.items:
            self.add(evidence, result.flags)
            if evidence.artefact_sha256 and result.data:
                self.files_read[evidence.artefact_sha256] = (result.name, result.data)

    def add(self, evidence: Evidence, flags: tuple[tuple[str, str], ...]) -> None:
        self.items.append((evidence, tuple(flags)))
        self._fill()
        self.host.refresh()

    def _remove_selected(self) -> None:
        rows = sorted({index.row() for index in self.table.selectedIndexes()}, reverse=True)
        for row in rows:
            del self.items[row]
        self._fill()
        self.host.refresh()

    def _fill(self) -> None:
        self.table.setRowCount(len(self.items))
        for row, (e, flags) in enumerate(self.items):
            cells = (
                # the kind as the Details pane and the Kind list say it, never its id
                f"{EVIDENCE_WORDS[e.kind]}: "
                + (f"{e.value:.2%}" if e.unit == "fraction" else f"{e.value:g} {e.unit}"),
                f"{e.scale_gpus:,} GPUs",
                GRADE_WORDS[e.grade],
                MEASURED_BY.get(e.measured_by, e.measured_by),
                e.artefact_name or "typed",
                "; ".join(message for _, message in flags) or "none",  # the flags' codes are ours
            )
            for column, text in enumerate(cells):
                item = QTableWidgetItem(text)
                item.setToolTip(
                    "\n".join(message for _, message in flags) if column == 5 else e.description
                )
                self.table.setItem(row, column, item)

    def values(self) -> dict:
        return {"evidence": [e.model_dump(mode="json") for e, _ in self.items]}

    def flags_as_json(self) -> list:
        return [[list(flag) for flag in flags] for _, flags in self.items]

    def load(self, raw: dict, flags: list | None = None) -> None:
        evidence = raw.get("evidence") or []
        flags = flags or [[] for _ in evidence]
        self.items = []
        for item, item_flags in zip(evidence, flags):
            try:
                self.items.append(
                    (Evidence.model_validate(item), tuple(tuple(f) for f in item_flags))
                )
            except ValidationError:
                continue  # a hand-edited draft: drop the one bad figure, keep the rest
        self._fill()

    def owns(self, path: tuple[str, ...]) -> bool:
        return path == ("evidence",)

    def show_problems(self, problems: tuple[Problem, ...]) -> None:
        pass  # every row was validated as Evidence when it was added

    def after_refresh(self) -> None:
        pass

    def isComplete(self) -> bool:  # noqa: N802 (Qt API)
        return self.pending == 0
