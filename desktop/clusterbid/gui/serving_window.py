"""A serving (inference) evaluation in the app: its ranking by weighted score (cost per million
output tokens and the criteria), the bid-by-criterion score matrix, every workload-fit flag, its
bids edited in the bid wizard, and its approval memo. Its menus are every window's
(gui/window_actions.py: records, memo, bid edits, plan inputs, provider ratings, zoom, help), with
serving's own groups (a benchmark attached to a bid, the frontier) named there per kind.

The figures are core's: the ranking is `score_serving_evaluation`, run on the app's background
runner (a serving score with its bands takes about a CPU-second, too long for the window's thread),
and the memo is the one `clusterbid memo` writes. Laid out like the main window: what decides on
the left, never scrolled sideways; the words on the right, in tabs (another view is one more tab).
"""

from __future__ import annotations

from collections.abc import Callable
from html import escape

from PySide6.QtCore import QCoreApplication, QEvent, QSize, Qt, QTimer
from PySide6.QtWidgets import (
    QLabel,
    QMainWindow,
    QSplitter,
    QTabWidget,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from clusterbid.core.costmodel.serving_growth_words import growth_words
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
from clusterbid.gui.screen_fit import fit_on_screen, keep_on_screen
from clusterbid.gui.serving_details import bid_details_html, findings_html
from clusterbid.gui.serving_ranking import ServingRanking
from clusterbid.gui.window_actions import WindowActions, menu_groups
from clusterbid.gui.window_parts import WindowParts
from clusterbid.gui.zoom import PresentationZoom

# The matrix's criteria: serving's cost criterion in place of the training job's net plan cost.
CRITERIA = (COST_CRITERION, *(name for name in CRITERION_WORDS if name != "cost_to_finish"))
WORDS = {**CRITERION_WORDS, COST_CRITERION: "Cost per million output tokens"}
SHORT_NAMES = {**SHORT, COST_CRITERION: "Cost"}
SIDE_MINIMUM = 260  # px: the tabs on the right still read as a column of words


class ServingWindow(QMainWindow):
    def __init__(
        self,
        document: EvaluationDocument,
        parent=None,
        zoom: PresentationZoom | None = None,
        zoom_to: Callable[[float], float] | None = None,
    ) -> None:
        """`zoom` is the app's presentation zoom (the main window's, when it opened this one) and
        `zoom_to` sets it, laying out every window that needs it (default: the font alone)."""
        super().__init__(parent)
        self.zoom = zoom or PresentationZoom(1.0)
        self.zoom_to = zoom_to or self.zoom.set
        self.setObjectName("serving_window")
        # The training window's parts, composed as there (gui/window_parts.py): every edit is shown
        # at once and committed behind on the session's commit lane, and re-scored off this thread.
        parts = WindowParts(
            self, document, selected_bid_id=self.selected_bid_id, scorecard=lambda: self.scorecard
        )
        self.session, self.tasks, self.follower = parts.session, parts.tasks, parts.follower
        self.bids, self.memos, self.info = parts.bids, parts.memos, parts.info
        self.session.evaluation_changed.connect(lambda _evaluation: self._rescore())
        self.scorecard: ServingScorecard | None = None
        self.rows: list[dict] = []
        fit_on_screen(self, QSize(1200, 680))
        self._build_layout()
        self.actions_ = WindowActions(self, menu_groups(document.evaluation))
        self.actions_.build_menus([])
        self.table.itemSelectionChanged.connect(self._show_selected)
        self.table.doubleClicked.connect(lambda _index: self.bids.edit_bid())
        self._rescore()

    @property
    def document(self) -> EvaluationDocument:
        """The document with every edit made so far committed (gui/session.py)."""
        return self.session.document

    def _needs_figures(self) -> tuple:
        """What reads the figures shown: enabled only once they are this evaluation's."""
        return (self.actions_.export_memo, self.actions_.export_comparison, self.actions_.frontier)

    def _build_layout(self) -> None:
        self.summary = QLabel()
        self.summary.setWordWrap(True)
        self.summary.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.table = ServingRanking()
        self.score_matrix = ScoreMatrix(criteria=CRITERIA, words=WORDS, short=SHORT_NAMES)
        self.score_matrix.setObjectName("serving_score_matrix")
        self.details = QTextBrowser()
        self.details.setObjectName("serving_details")
        self.findings = QTextBrowser()
        self.findings.setObjectName("serving_findings")
        self.table_splitter = QSplitter(Qt.Orientation.Vertical)
        self.table_splitter.addWidget(self.table)
        self.table_splitter.addWidget(self.score_matrix)  # why the ranking is what it is
        self.table_splitter.setSizes([300, 220])
        self.side_tabs = QTabWidget()
        self.side_tabs.setUsesScrollButtons(False)  # at 175% the names elide rather than scroll
        self.side_tabs.tabBar().setElideMode(Qt.TextElideMode.ElideRight)
        self.side_tabs.addTab(self.details, "&Details")
        self.side_tabs.addTab(self.findings, "&Gates and flags")
        self.main_splitter = QSplitter(Qt.Orientation.Horizontal)
        self.main_splitter.addWidget(self.table_splitter)
        self.main_splitter.addWidget(self.side_tabs)
        self.main_splitter.setStretchFactor(0, 3)
        self.main_splitter.setStretchFactor(1, 1)
        self.main_splitter.setSizes([800, 400])
        central = QWidget()
        layout = QVBoxLayout(central)
        layout.setContentsMargins(4, 4, 4, 0)
        layout.addWidget(self.summary)
        layout.addWidget(self.main_splitter, 1)
        self.setCentralWidget(central)

    # -- scoring, off the window's thread ------------------------------------------------------------
    def _rescore(self) -> None:
        """Score the evaluation as it now stands on the background runner; a newer edit supersedes
        a run still going, whose result is dropped."""
        evaluation = self.session.evaluation
        self._show_summary(evaluation)
        for action in self._needs_figures():
            action.setEnabled(False)  # until the figures shown are this evaluation's
        self.statusBar().showMessage("Scoring the bids…", 0)
        self.tasks.run(
            "score",
            lambda _progress: score_serving_evaluation(evaluation),
            self._on_scored,
            self._on_score_failed,
        )

    def _on_scored(self, scorecard: ServingScorecard) -> None:
        if scorecard.evaluation != self.session.evaluation:
            return  # an older state finished late; the newer one is on its way
        selected = self.selected_bid_id()
        self.scorecard = scorecard
        self.rows = serving_comparison_rows(scorecard)
        self.table.show_scorecard(scorecard)
        self.score_matrix.show_scorecard(scorecard)
        self.findings.setHtml(findings_html(scorecard))
        if selected in self.table.bid_ids or self.table.bid_ids:  # the first opens on the winner
            self.table.selectRow(
                self.table.bid_ids.index(selected) if selected in self.table.bid_ids else 0
            )
        self._show_selected()
        for action in self._needs_figures():
            action.setEnabled(True)
        self.fit_to_width()
        self.statusBar().showMessage(
            "Edit > Add Bid… or double-click a bid to change it; every change is "
            "audited and can be undone.",
            0,
        )

    def _on_score_failed(self, error: Exception) -> None:
        self.statusBar().showMessage(f"The bids could not be scored: {error}", 0)

    def _show_summary(self, evaluation) -> None:
        w = evaluation.workload
        self.setWindowTitle(f"{evaluation.title} — {self.session.file_name} — ClusterBid (serving)")
        self.summary.setText(
            f"<b>{escape(evaluation.title)}</b> &nbsp; Service: {escape(w.name)}; targets time to "
            "first "
            f"token {w.ttft_target_ms:g} ms and {w.tpot_target_ms:g} ms per output token; peak "
            f"{w.peak_requests_per_s:g} requests/s, average {w.average_requests_per_s:g} "
            "requests/s. GPUs are "
            "billed at peak provisioning; cost per token at the average load."
            + (f" Growth: {escape(growth)}." if (growth := growth_words(w)) else "")
        )

    def _show_selected(self) -> None:
        if self.scorecard is not None:
            self.details.setHtml(bid_details_html(self.scorecard, self.selected_bid_id()))

    # -- layout at any width and presentation zoom ---------------------------------------------------
    def fit_to_width(self) -> None:
        """The ranking's side of the splitter as wide as its deciding columns need; the tabs on
        the right wrap their words, so they give way, down to SIDE_MINIMUM."""
        sizes = self.main_splitter.sizes()
        total = sum(sizes)
        if len(sizes) != 2 or total == 0:
            return
        left = min(max(sizes[0], self.table.needed_width()), total - SIDE_MINIMUM)
        if left != sizes[0]:
            self.main_splitter.setSizes([left, total - left])
        self.table.fit_columns()
        self.score_matrix.fit_columns()

    def zoom_by(self, direction: int) -> None:
        """One zoom step up or down, or back to 100% (0); the window lays out again at the font change."""
        factor = self.zoom_to(self.zoom.next_step(direction) if direction else 1.0)
        self.statusBar().showMessage(f"Presentation zoom {factor:.0%}", 3000)

    def zoom_reset(self) -> None:
        self.zoom_by(0)

    def relayout(self) -> None:
        """Re-measure what was sized at the old font (rows, columns, the splitter)."""
        QCoreApplication.sendPostedEvents()  # the new font reaches every child before measuring
        if self.scorecard is not None:
            self.table.show_scorecard(self.scorecard)
            self.score_matrix.show_scorecard(self.scorecard)
        self.fit_to_width()

    def event(self, event) -> bool:  # noqa: D102 (Qt API)
        if event.type() == QEvent.Type.ApplicationFontChange:  # presentation zoom, from any window
            QTimer.singleShot(0, self.relayout)
        return super().event(event)

    def resizeEvent(self, event) -> None:  # noqa: N802 (Qt API)
        super().resizeEvent(event)
        self.fit_to_width()

    def showEvent(self, event) -> None:  # noqa: N802 (Qt API)
        super().showEvent(event)
        QTimer.singleShot(0, lambda: keep_on_screen(self))  # the frame is known once shown

    def selected_bid_id(self) -> str | None:
        row = self.table.currentRow()
        return self.table.bid_ids[row] if 0 <= row < len(self.table.bid_ids) else None

    def show_frontier(self) -> None:
        from clusterbid.gui.serving_frontier_view import show_frontier

        show_frontier(self)

    def export_comparison(self) -> None:
        export_comparison_dialog(self, self.tasks, self.scorecard, "serving-comparison.xlsx")

    def closeEvent(self, event) -> None:  # noqa: N802 (Qt API)
        self.session.lane.settle()  # every edit made is written (and a refusal said) first
        # A memo being written is finished and its audit row delivered before the file closes.
        self.tasks.cancel("score")
        self.tasks.wait_for_done(30_000)
        QCoreApplication.sendPostedEvents()
        self.session.close()
        super().closeEvent(event)
