"""A serving (inference) evaluation in the app: its ranking by cost per million output tokens,
every workload-fit flag, its bids edited in the bid wizard (serving_edits.py), and its approval memo.

The figures are core's: `serving_comparison_rows` is the same table `clusterbid export` writes,
and the memo is the one `clusterbid memo` writes.
"""

from __future__ import annotations

from decimal import Decimal
from html import escape

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtGui import QBrush, QColor, QKeySequence
from PySide6.QtWidgets import QLabel, QMainWindow, QSplitter, QTableWidget, QTableWidgetItem, QTextBrowser

from clusterbid.core.money import format_money
from clusterbid.core.serving_report import band_text, serving_comparison_rows
from clusterbid.core.serving_scoring import ServingScorecard, score_serving_evaluation
from clusterbid.core.store import EvaluationDocument
from clusterbid.gui import dialogs
from clusterbid.gui.background import BackgroundTasks
from clusterbid.gui.memo_commands import MemoCommands
from clusterbid.gui.serving_edits import ServingBidEdits

SHOWN = ("rank", "provider", "GPU model", "price per GPU-hour", "cost per million output tokens",
         "cost per million P10-P90", "chance cheapest [%]", "cost per month", "GPUs needed", "GPUs billed",
         "output tokens/s per GPU", "batch per replica", "tensor parallel", "weighted score", "gates")
CANNOT_SERVE = QColor("#b3261e")


# Money as the training window prints it: whole units for large sums, cents for rates.
WHOLE_UNITS = ("cost per month",)


def _heading(key: str) -> str:
    """'cost per month [USD]' reads 'Cost per month' (the currency is on each figure)."""
    text = key.split(" [")[0] + (" (%)" if key.endswith("[%]") else "")
    return text[:1].upper() + text[1:]


def _cell(value, key: str = "", currency: str = "") -> str:
    if value is None:
        return "—"
    if currency and key.endswith(f"[{currency}]"):
        if isinstance(value, str):  # a P10-P90 range "0.31-0.47"
            low, _, high = value.partition("-")
            low_text, high_text = (format_money(float(v), currency, cents=True) for v in (low, high))
            return f"{low_text} – {high_text}"
        return format_money(float(value), currency, cents=not key.startswith(WHOLE_UNITS))
    if isinstance(value, Decimal):
        return f"{value:,.2f}"
    return f"{value:,}" if isinstance(value, (int, float)) else str(value)


def _column(rows: list[dict], shown: str) -> str:
    """The row key for a shown column (the money columns carry the currency in their name)."""
    return next((key for key in rows[0] if key == shown or key.startswith(shown + " [")), shown) if rows else shown


class ServingWindow(ServingBidEdits, QMainWindow):
    def __init__(self, document: EvaluationDocument, parent=None) -> None:
        super().__init__(parent)
        self.setObjectName("serving_window")
        self.document = document
        self.resize(1200, 680)
        self.summary = QLabel()
        self.summary.setWordWrap(True)
        self.table = QTableWidget()
        self.table.setObjectName("serving_table")
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.table.setSortingEnabled(False)  # rank order is the point; keep it
        self.table.verticalHeader().hide()  # the rank column numbers the rows
        self.table.setSelectionBehavior(QTableWidget.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QTableWidget.SelectionMode.SingleSelection)
        self.findings = QTextBrowser()
        self.findings.setObjectName("serving_findings")
        splitter = QSplitter(Qt.Orientation.Vertical)
        splitter.addWidget(self.summary)
        splitter.addWidget(self.table)
        splitter.addWidget(self.findings)
        splitter.setSizes([70, 330, 240])
        self.setCentralWidget(splitter)
        self.tasks = BackgroundTasks(self)
        # The training window's memo handlers, on this window's document and serving scorecard.
        self.memos = MemoCommands(self, self.tasks, lambda: self.document, lambda: self.scorecard)
        menu = self.menuBar().addMenu("&File")
        menu.addAction("Export Co&mparison…", QKeySequence("Ctrl+E"), self.export_comparison)
        self.export_memo_action = menu.addAction("Export Approval &Memo…", QKeySequence("Ctrl+M"),
                                                 self.memos.export_memo_dialog)
        self.sign_memo_action = menu.addAction("&Sign a Memo…", self.memos.sign_memo_dialog)
        self.verify_memo_action = menu.addAction("&Verify a Memo…", self.memos.verify_memo_dialog)
        menu.addAction("&Close", QKeySequence.StandardKey.Close, self.close)
        self.menuBar().addMenu("&View").addAction("Serving &Frontier…", self._show_frontier)  # issue 37
        self.rows: list[dict] = []
        self._build_edit_menu()
        self._rescore()
        self.statusBar().showMessage("Edit > Add Bid… or double-click a bid to change it; every change is "
                                     "audited and can be undone.", 0)

    def _rescore(self) -> None:
        """Score the document's evaluation as it now stands and show it (a serving score is a few ms)."""
        selected = self.selected_bid_id()
        self.scorecard = score_serving_evaluation(self.session.evaluation)
        self._show(self.scorecard)
        ids = [row["bid id"] for row in self.rows]
        if selected in ids:
            self.table.selectRow(ids.index(selected))

    def _show(self, scorecard: ServingScorecard) -> None:
        evaluation = scorecard.evaluation
        w = evaluation.workload
        self.setWindowTitle(f"{evaluation.title} — {self.document.path.name} — ClusterBid (serving)")
        self.summary.setText(
            f"<b>{escape(evaluation.title)}</b> &nbsp; Service: {escape(w.name)}; targets TTFT {w.ttft_target_ms:g} ms "
            f"and {w.tpot_target_ms:g} ms per output token; peak {w.peak_requests_per_s:g} req/s, average "
            f"{w.average_requests_per_s:g} req/s. GPUs are billed at peak provisioning; cost per token at the average load."
        )
        rows = self.rows = serving_comparison_rows(scorecard)
        keys = [_column(rows, name) for name in SHOWN]
        self.table.setColumnCount(len(keys))
        self.table.setHorizontalHeaderLabels([_heading(k) for k in keys])
        self.table.setRowCount(len(rows))
        for r, row in enumerate(rows):
            serves = row["rank"] is not None
            for c, key in enumerate(keys):
                item = QTableWidgetItem(_cell(row.get(key), key, evaluation.currency))
                if isinstance(row.get(key), (int, float, Decimal)):
                    item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                if not serves:
                    item.setForeground(QBrush(CANNOT_SERVE))
                self.table.setItem(r, c, item)
        self.table.resizeColumnsToContents()
        self.findings.setHtml(self._findings_html(scorecard))

    @staticmethod
    def _findings_html(scorecard: ServingScorecard) -> str:
        parts = ["<h3>Gates, workload-fit flags, calibration and cost bands</h3>"]
        for score in scorecard.scores:
            e = score.estimate
            lines = [f"<b>Cannot serve</b>: {escape(g.message)}" for g in e.gates]
            lines += [f"Flag: {escape(w.message)}" for w in e.warnings]
            lines += [escape(note) for note in e.calibration_notes]
            band = scorecard.band(e.bid.id)
            if e.passes_gates and band is not None and band.chance_servable > 0:
                lines.append(escape(band_text(band, scorecard.evaluation.currency)))
            if lines:
                parts.append(f"<p><b>{escape(e.bid.quote.provider)}</b> ({escape(e.bid.id)})<br>" + "<br>".join(lines) + "</p>")
        return "".join(parts)

    def _show_frontier(self) -> None:
        from clusterbid.gui.serving_frontier_view import show_frontier

        show_frontier(self)

    def export_comparison(self) -> None:
        from clusterbid.gui.file_commands import export_comparison_in_background

        path = dialogs.save_file(self, "Export the comparison", "serving-comparison.xlsx", "Tables (*.xlsx *.csv)")
        if path:
            export_comparison_in_background(self, self.tasks, self.scorecard, path)

    def closeEvent(self, event) -> None:  # noqa: N802 (Qt API)
        # A memo being written is finished and its audit row delivered before the file closes.
        self.tasks.wait_for_done(30_000)
        QCoreApplication.sendPostedEvents()
        self.document.close()
        super().closeEvent(event)
