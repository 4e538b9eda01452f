"""A serving (inference) evaluation in the window (gui/evaluation_window.py): its ranking by
weighted score (cost per million output tokens and the criteria), the bid-by-criterion score
matrix, every workload-fit flag, its bids edited in the bid wizard, and its approval memo. Its
menus are every window's (gui/window_actions.py), with serving's own groups (a benchmark attached
to a bid, the frontier) named there per kind.

The figures are core's: the ranking is `score_serving_evaluation`, run on the window's background
runner (a serving score with its bands takes about a CPU-second, too long for the window's thread),
and the memo is the one `clusterbid memo` writes. Laid out like the training window: what decides
on the left, never scrolled sideways; the words on the right, in tabs (another view is one more
tab). It opens beside the main window, which stays open (it has no File > Open of its own)."""

from __future__ import annotations

from html import escape
from typing import Any

from PySide6.QtCore import QCoreApplication, QSize, Qt
from PySide6.QtWidgets import (
    QDockWidget,
    QSplitter,
    QTabWidget,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from clusterbid.core.costmodel.serving_growth_words import growth_words
from clusterbid.core.evaluation import Evaluation
from clusterbid.core.serving_report import serving_comparison_rows
from clusterbid.core.serving_scoring import (
    COST_CRITERION,
    ServingScorecard,
    score_serving_evaluation,
)
from clusterbid.core.store import EvaluationDocument
from clusterbid.gui.comparison.score_matrix import SHORT, ScoreMatrix
from clusterbid.gui.comparison.scorecard_table_model import CRITERION_WORDS
from clusterbid.gui.file_commands import export_comparison_dialog
from clusterbid.gui.kind_view import KindView, side_by_side
from clusterbid.gui.serving_details import bid_details_html, findings_html
from clusterbid.gui.serving_ranking import ServingRanking

# The matrix's criteria: serving's cost criterion in place of the training job's net plan cost.
CRITERIA = (COST_CRITERION, *(name for name in CRITERION_WORDS if name != "cost_to_finish"))
WORDS = {**CRITERION_WORDS, COST_CRITERION: "Cost per million output tokens"}
SHORT_NAMES = {**SHORT, COST_CRITERION: "Cost"}
SIDE_MINIMUM = 260  # px: the tabs on the right still read as a column of words


class ServingView(KindView):
    object_name = "serving_window"
    preferred_size = QSize(1200, 680)
    opens_beside = True

    def build(self, document: EvaluationDocument) -> list[QDockWidget]:
        w: Any = self.window
        self.shown: ServingScorecard | None = None
        w.rows = []  # the comparison rows of the scorecard shown (`clusterbid export`'s)
        w.table = ServingRanking()
        w.score_matrix = ScoreMatrix(criteria=CRITERIA, words=WORDS, short=SHORT_NAMES)
        w.score_matrix.setObjectName("serving_score_matrix")
        w.details = QTextBrowser()
        w.details.setObjectName("serving_details")
        w.findings = QTextBrowser()
        w.findings.setObjectName("serving_findings")
        w.table_splitter = QSplitter(Qt.Orientation.Vertical)
        w.table_splitter.addWidget(w.table)
        w.table_splitter.addWidget(w.score_matrix)  # why the ranking is what it is
        w.table_splitter.setSizes([300, 220])
        w.side_tabs = QTabWidget()
        w.side_tabs.setUsesScrollButtons(False)  # at 175% the names elide rather than scroll
        w.side_tabs.tabBar().setElideMode(Qt.TextElideMode.ElideRight)
        w.side_tabs.addTab(w.details, "&Details")
        w.side_tabs.addTab(w.findings, "&Gates and flags")
        w.main_splitter = side_by_side(w.table_splitter, w.side_tabs, [800, 400])
        central = QWidget()
        layout = QVBoxLayout(central)
        layout.setContentsMargins(4, 4, 4, 0)
        layout.addWidget(w.summary)
        layout.addWidget(w.main_splitter, 1)
        w.setCentralWidget(central)
        return []

    def start(self, document: EvaluationDocument, note: str | None) -> None:
        w: Any = self.window
        w.table.itemSelectionChanged.connect(self._show_selected)
        w.table.doubleClicked.connect(lambda _index: w.bids.edit_bid())
        self.evaluation_changed(document.evaluation)

    def _needs_figures(self) -> tuple[Any, ...]:
        """What reads the figures shown: enabled only once they are this evaluation's."""
        a = self.window.actions_
        return (a.export_memo, a.export_comparison, a.frontier)

    # -- scoring, off the window's thread ----------------------------------------------------------
    def evaluation_changed(self, evaluation: Evaluation) -> None:
        """Score the evaluation as it now stands on the background runner; a newer edit supersedes
        a run still going, whose result is dropped."""
        self._show_summary(evaluation)
        for action in self._needs_figures():
            action.setEnabled(False)  # until the figures shown are this evaluation's
        self.window.statusBar().showMessage("Scoring the bids…", 0)
        self.window.tasks.run(
            "score",
            lambda _progress: score_serving_evaluation(evaluation),
            self._on_scored,
            self._on_score_failed,
        )

    def _on_scored(self, scorecard: ServingScorecard) -> None:
        w: Any = self.window
        if scorecard.evaluation != w.session.evaluation:
            return  # an older state finished late; the newer one is on its way
        selected = self.selected_bid_id()
        self.shown = scorecard
        w.rows = serving_comparison_rows(scorecard)
        w.table.show_scorecard(scorecard)
        w.score_matrix.show_scorecard(scorecard)
        w.findings.setHtml(findings_html(scorecard))
        ids = w.table.bid_ids
        if selected in ids or ids:  # the first opens on the winner
            w.table.selectRow(ids.index(selected) if selected in ids else 0)
        self._show_selected()
        for action in self._needs_figures():
            action.setEnabled(True)
        self.fit_to_width()
        w.statusBar().showMessage(
            "Edit > Add Bid… or double-click a bid to change it; every change is "
            "audited and can be undone.",
            0,
        )

    def _on_score_failed(self, error: Exception) -> None:
        self.window.statusBar().showMessage(f"The bids could not be scored: {error}", 0)

    def _show_summary(self, evaluation: Evaluation) -> None:
        w: Any = self.window
        load: Any = evaluation.workload
        w.setWindowTitle(f"{evaluation.title} — {w.session.file_name} — ClusterBid (serving)")
        w.summary.setText(
            f"<b>{escape(evaluation.title)}</b> &nbsp; Service: {escape(load.name)}; targets time "
            "to first "
            f"token {load.ttft_target_ms:g} ms and {load.tpot_target_ms:g} ms per output token; "
            f"peak {load.peak_requests_per_s:g} requests/s, average "
            f"{load.average_requests_per_s:g} requests/s. GPUs are "
            "billed at peak provisioning; cost per token at the average load."
            + (f" Growth: {escape(growth)}." if (growth := growth_words(load)) else "")
        )

    def _show_selected(self) -> None:
        if self.shown is not None:
            self.window.details.setHtml(bid_details_html(self.shown, self.selected_bid_id()))

    def scorecard(self) -> ServingScorecard | None:
        return self.shown

    def selected_bid_id(self) -> str | None:
        table: ServingRanking = self.window.table
        row = table.currentRow()
        return table.bid_ids[row] if 0 <= row < len(table.bid_ids) else None

    # -- layout at any width and presentation zoom -------------------------------------------------
    def fit_to_width(self) -> None:
        """The ranking's side of the splitter as wide as its deciding columns need; the tabs on
        the right wrap their words, so they give way, down to SIDE_MINIMUM."""
        w: Any = self.window
        if "table" not in w.__dict__:
            return  # resized before its panels exist
        sizes = w.main_splitter.sizes()
        total = sum(sizes)
        if len(sizes) != 2 or total == 0:
            return
        left = min(max(sizes[0], w.table.needed_width()), total - SIDE_MINIMUM)
        if left != sizes[0]:
            w.main_splitter.setSizes([left, total - left])
        w.table.fit_columns()
        w.score_matrix.fit_columns()

    def relayout(self) -> None:
        """Re-measure what was sized at the old font (rows, columns, the splitter)."""
        QCoreApplication.sendPostedEvents()  # the new font reaches every child before measuring
        if self.shown is not None:
            self.window.table.show_scorecard(self.shown)
            self.window.score_matrix.show_scorecard(self.shown)
        self.fit_to_width()

    def show_frontier(self) -> None:
        from clusterbid.gui.serving_frontier_view import show_frontier

        show_frontier(self.window)

    def export_comparison(self) -> None:
        export_comparison_dialog(
            self.window, self.window.tasks, self.shown, "serving-comparison.xlsx"
        )
