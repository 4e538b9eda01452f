"""The main window: the job, the ranked comparison, and the selected bid's assumptions."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QHeaderView, QLabel, QMainWindow, QSplitter, QTableView, QTextBrowser, QVBoxLayout, QWidget

from clusterbid.core.assumptions import bid_assumptions
from clusterbid.core.evaluation import Evaluation
from clusterbid.core.scoring import score_evaluation
from clusterbid.gui.scorecard_table_model import ScorecardTableModel


class MainWindow(QMainWindow):
    def __init__(self, evaluation: Evaluation) -> None:
        super().__init__()
        self.setWindowTitle(f"ClusterBid — {evaluation.title}")
        self.resize(1280, 760)
        self._scorecard = score_evaluation(evaluation)
        self._model = ScorecardTableModel(self._scorecard)

        w = evaluation.workload
        summary = QLabel(
            f"<b>{evaluation.title}</b><br>Planned job: {w.name} — <b>{w.job_gpus:,} GPUs</b>, "
            f"{w.total_training_flops:.3g} FLOPs, TP{w.tensor_parallel} × PP{w.pipeline_parallel} × "
            f"CP{w.context_parallel} × DP{w.data_parallel}, baseline MFU {w.baseline_mfu:.0%}"
        )
        summary.setWordWrap(True)
        self._table = QTableView()
        self._table.setModel(self._model)
        self._table.setSelectionBehavior(QTableView.SelectionBehavior.SelectRows)
        self._table.setSelectionMode(QTableView.SelectionMode.SingleSelection)
        self._table.verticalHeader().hide()
        self._table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self._table.horizontalHeader().setStretchLastSection(True)
        self._details = QTextBrowser()
        self._table.selectionModel().currentRowChanged.connect(lambda current, _: self._show_details(current.row()))

        splitter = QSplitter(Qt.Orientation.Vertical)
        splitter.addWidget(self._table)
        splitter.addWidget(self._details)
        splitter.setSizes([330, 400])
        central = QWidget()
        layout = QVBoxLayout(central)
        layout.addWidget(summary)
        layout.addWidget(splitter)
        self.setCentralWidget(central)
        self._table.selectRow(0)

    @classmethod
    def for_path(cls, path: str | None) -> MainWindow:
        from clusterbid.core.demo import demo_evaluation
        from clusterbid.core.documents import read_model

        return cls(demo_evaluation() if path is None else read_model(Evaluation, Path(path)))

    def _show_details(self, row: int) -> None:
        if row < 0:
            return
        score = self._model.score_at(row)
        estimate = score.estimate
        parts = [f"<h3>{estimate.bid.quote.provider} ({estimate.bid.id})</h3>"]
        if estimate.gates:
            parts.append("<p style='color:#8a1c1c'><b>Excluded:</b><br>" + "<br>".join(g.message for g in estimate.gates) + "</p>")
        if estimate.warnings:
            parts.append("<p><b>Notes:</b><br>" + "<br>".join(w.message for w in estimate.warnings) + "</p>")
        rows = "".join(
            f"<tr><td><b>{a.name}</b></td><td>{a.value}</td><td style='color:#555'>{a.source}</td></tr>"
            for a in bid_assumptions(estimate, self._scorecard.evaluation.workload)
        )
        parts.append(f"<table cellspacing='0' cellpadding='3'>{rows}</table>")
        self._details.setHtml("".join(parts))
