"""The main window: outline, ranked comparison with weights, details and charts, workload editor."""

from __future__ import annotations

import html
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QSize, Qt, QTimer
from PySide6.QtWidgets import (
    QDockWidget,
    QLabel,
    QMainWindow,
    QScrollArea,
    QSplitter,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from clusterbid.core.errors import InputError
from clusterbid.core.flops import flops_text
from clusterbid.core.scoring import score_evaluation
from clusterbid.core.store import EvaluationDocument
from clusterbid.gui import dialogs
from clusterbid.gui.acceptance_dialog import AcceptanceCommands
from clusterbid.gui.charts.charts_panel import ChartsPanel
from clusterbid.gui.comparison.comparison_view import ComparisonView
from clusterbid.gui.comparison.empty_hint import EmptyHint
from clusterbid.gui.comparison.score_matrix import ScoreMatrix
from clusterbid.gui.comparison.scorecard_table_model import BAND, WIN, ScorecardTableModel
from clusterbid.gui.comparison.weights_panel import WeightsPanel
from clusterbid.gui.details_panel import DetailsPanel
from clusterbid.gui.evaluation_files import EvaluationFiles
from clusterbid.gui.evidence_requests_panel import EvidenceRequestsPanel
from clusterbid.gui.file_commands import DOCUMENT_SUFFIX, FileCommands, dropped_paths
from clusterbid.gui.outline import OutlineTree
from clusterbid.gui.release import release
from clusterbid.gui.rescoring import Rescorer
from clusterbid.gui.screen_fit import fit_on_screen, keep_on_screen
from clusterbid.gui.settings import AppSettings
from clusterbid.gui.task_progress import TaskProgress
from clusterbid.gui.window_actions import WindowActions, menu_groups
from clusterbid.gui.window_parts import WindowParts
from clusterbid.gui.workload_editor import WorkloadEditor
from clusterbid.gui.zoom import PresentationZoom
from clusterbid.gui.zoom_layout import ZoomLayout


def audit_banner(report) -> str:
    """The line under the summary for a document that fails its audit; it stays while it is open."""
    return (
        "<br><span style='color:#b00020'><b>This document fails its audit:</b> "
        f"{html.escape(report.reason or '')}. Edits are refused; a memo needs a reason, which is "
        "recorded."
        "</span>"
    )


class MainWindow(QMainWindow):
    def __init__(
        self, document: EvaluationDocument, settings: AppSettings, note: str | None = None
    ) -> None:
        super().__init__()
        self.setObjectName("main_window")
        self.settings = settings
        # Session (weights, workload, undo: committed behind), runner, follower, bid edits, memo,
        # records and help: every window's parts (gui/window_parts.py).
        parts = WindowParts(
            self,
            document,
            selected_bid_id=lambda: self.comparison.selected_bid_id(),
            scorecard=lambda: self.model.scorecard,
            draft_store=self._wizard_draft,
            after_edit=self._select_after_edit,
        )
        self.session, self.tasks, self.follower = parts.session, parts.tasks, parts.follower
        self.bids, self.memos, self.info = parts.bids, parts.memos, parts.info
        self.rescorer = Rescorer(self.tasks, self)
        self.zoom = PresentationZoom(settings.zoom())
        self.zoom_layout = ZoomLayout(self)
        self.pending_selection: str | None = None
        self.nccl_runs: list = []
        fit_on_screen(self, QSize(1340, 780))  # no taller than a 1366x768 laptop's screen
        self.setAcceptDrops(True)

        scorecard = score_evaluation(document.evaluation)  # first paint shows real figures
        self.model = ScorecardTableModel(scorecard)
        self.comparison = ComparisonView(self.model)
        self.weights = WeightsPanel()
        self.score_matrix = ScoreMatrix()
        self.details = DetailsPanel()
        self.requests = EvidenceRequestsPanel()
        self.requests.written.connect(lambda text: self.statusBar().showMessage(text, 30_000))
        self.charts = ChartsPanel()
        self.charts.font_scale = self.zoom.factor
        self.outline = OutlineTree()
        self.workload_editor = WorkloadEditor()
        self._build_layout()
        self.evaluations = EvaluationFiles(
            self,
            self.session,
            settings,
            switch_to=self.switch_document,
            created=self.show_workload_editor,
        )
        self.acceptance = AcceptanceCommands(self, self.session, self.comparison.selected_bid_id)
        self.interchange = FileCommands(
            self,
            self.session,
            self.tasks,
            scorecard=lambda: self.model.scorecard,
            show_nccl_runs=self.show_nccl_runs,
        )
        self.export_comparison = self.interchange.export_comparison  # File menu, as every window
        self.actions_ = WindowActions(self, menu_groups(document.evaluation))
        self.actions_.build_menus([self.outline_dock, self.workload_dock])
        self.comparison.set_empty_hint(
            EmptyHint(self.actions_.edit_workload, self.actions_.add_bid, self.actions_.import_bids)
        )
        self.task_progress = TaskProgress(self, self.tasks)
        self._connect()
        self._restore_state()
        self._show_evaluation(document.evaluation)
        self._show_scorecard(scorecard)
        self.rescorer.analyse(scorecard)  # the bands and tipping points follow the first figures
        settings.note_opened(document.path)
        if note:
            self.statusBar().showMessage(note, 15_000)

    # -- construction ------------------------------------------------------------------------------
    def _build_layout(self) -> None:
        self.summary = QLabel()
        self.summary.setWordWrap(True)
        self.summary.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        left = QWidget()
        left_layout = QVBoxLayout(left)
        left_layout.setContentsMargins(0, 0, 0, 0)
        left_layout.addWidget(self.summary)
        self.table_splitter = QSplitter(Qt.Orientation.Vertical)
        self.table_splitter.setObjectName("table_splitter")
        self.table_splitter.addWidget(self.comparison)
        self.table_splitter.addWidget(self.score_matrix)  # the criteria right above their weights
        weights_scroll = QScrollArea()
        weights_scroll.setWidgetResizable(True)
        weights_scroll.setWidget(self.weights)
        self.table_splitter.addWidget(weights_scroll)
        self.table_splitter.setSizes([230, 170, 260])
        left_layout.addWidget(self.table_splitter, 1)
        self.side_tabs = QTabWidget()
        details_split = QSplitter(
            Qt.Orientation.Vertical
        )  # the bid, then the evidence worth asking for
        details_split.addWidget(self.details)
        details_split.addWidget(self.requests)
        details_split.setSizes([520, 200])
        self.side_tabs.addTab(details_split, "&Details")
        self.side_tabs.addTab(self.charts, "C&harts")
        self.main_splitter = QSplitter(Qt.Orientation.Horizontal)
        self.main_splitter.setObjectName("main_splitter")
        self.main_splitter.addWidget(left)
        self.main_splitter.addWidget(self.side_tabs)
        self.main_splitter.setStretchFactor(0, 3)
        self.main_splitter.setStretchFactor(1, 1)
        self.main_splitter.setSizes([720, 360])
        self.setCentralWidget(self.main_splitter)
        self.outline_dock = self._dock("&Outline", "outline_dock", self.outline)
        editor_scroll = QScrollArea()
        editor_scroll.setWidgetResizable(True)
        editor_scroll.setWidget(self.workload_editor)
        self.workload_dock = self._dock("&Workload", "workload_dock", editor_scroll)
        self.addDockWidget(Qt.DockWidgetArea.LeftDockWidgetArea, self.outline_dock)
        self.addDockWidget(Qt.DockWidgetArea.LeftDockWidgetArea, self.workload_dock)
        self.tabifyDockWidget(self.outline_dock, self.workload_dock)
        self.outline_dock.raise_()
        self.resizeDocks([self.outline_dock], [300], Qt.Orientation.Horizontal)

    def _dock(self, title: str, name: str, widget: QWidget) -> QDockWidget:
        dock = QDockWidget(title.replace("&", ""), self)
        dock.setObjectName(name)
        dock.setWidget(widget)
        dock.toggleViewAction().setText(title)
        return dock

    def _connect(self) -> None:
        self.session.evaluation_changed.connect(self._on_evaluation_changed)
        self.rescorer.scored.connect(self._show_scorecard)
        self.rescorer.analysed.connect(self._show_analysis)
        self.rescorer.valued.connect(self._show_value)
        self.rescorer.failed.connect(lambda text: self.statusBar().showMessage(text, 10_000))
        self.comparison.bid_selected.connect(self._on_bid_selected)
        self.outline.bid_selected.connect(self.comparison.select_bid)
        self.outline.workload_selected.connect(self.show_workload_editor)
        self.weights.weights_edited.connect(self.apply_weights)
        self.workload_editor.workload_edited.connect(self.apply_workload)
        self.comparison.doubleClicked.connect(lambda _index: self.bids.edit_bid())

    # -- reacting to changes -------------------------------------------------------------------------
    def _on_evaluation_changed(self, evaluation) -> None:
        self._show_evaluation(evaluation)
        self.rescorer.request(evaluation)

    def _show_evaluation(self, evaluation) -> None:
        w = evaluation.workload
        report = self.session.audit_report  # not waiting for the edit's commit
        failed = "" if report.ok else "AUDIT FAILED — "
        self.setWindowTitle(f"{failed}{evaluation.title} — {self.session.file_name} — ClusterBid")
        self.summary.setText(
            f"<b>{evaluation.title}</b> &nbsp; Planned job: {w.name}, <b>{w.job_gpus:,} GPUs</b>, "
            f"{flops_text(w.total_training_flops)}, TP{w.tensor_parallel} × "
            f"PP{w.pipeline_parallel} × "
            f"CP{w.context_parallel} × DP{w.data_parallel}, baseline MFU {w.baseline_mfu:.0%}"
            + ("" if report.ok else audit_banner(report))
        )
        self.weights.show_weights(evaluation.policy.weights)
        if (
            not self.workload_editor.isVisible()
            or self.workload_editor.validated() != evaluation.workload
        ):
            self.workload_editor.show_workload(evaluation.workload)

    def _show_scorecard(self, scorecard) -> None:
        if scorecard.evaluation != self.session.evaluation:
            return  # an older snapshot finished late; the newer one is on its way
        keep = self.pending_selection or self.comparison.selected_bid_id()
        self.pending_selection = None
        replaced = self.model.scorecard  # freed off this thread once every view has let go
        self.model.set_scorecard(scorecard)
        self.score_matrix.show_scorecard(scorecard)
        self.comparison.select_bid(keep)
        self.outline.show_scorecard(scorecard, self.comparison.selected_bid_id())
        self.requests.show_bid(self.session, None, keep_value=False)  # the last value is stale
        self._on_bid_selected(self.comparison.selected_bid_id())
        self.charts.set_inputs(scorecard=scorecard, uncertainty=None, sensitivity=None)
        has_bid = self.comparison.selected_bid_id() is not None
        for action in (
            self.actions_.edit_bid,
            self.actions_.duplicate_bid,
            self.actions_.delete_bid,
            self.actions_.acceptance_plan,
            self.actions_.acceptance_status,
        ):
            action.setEnabled(has_bid)
        self._remember_shown()  # before the bands: a window closed before they come opens fast too
        release(replaced)

    def _show_analysis(self, analysis) -> None:
        if analysis.evaluation is not None and analysis.evaluation != self.session.evaluation:
            return  # figures of an older snapshot (bids since removed): the newer ones are on their way
        if analysis.scorecard is not None:  # ranked on the decision basis, as the CLI and memo rank
            release(self.model.scorecard)  # held here, freed there once the views let go
            keep = self.comparison.selected_bid_id()
            self.model.set_scorecard(
                analysis.scorecard, analysis.uncertainty
            )  # texts the worker made
            self.score_matrix.show_scorecard(analysis.scorecard)
            self.comparison.select_bid(keep)
            self.outline.show_scorecard(analysis.scorecard, self.comparison.selected_bid_id())
            self.charts.set_inputs(scorecard=analysis.scorecard)
        self.model.set_uncertainty(analysis.uncertainty)
        self.comparison.measure_columns(
            (BAND, WIN)
        )  # sized for "—" until now: the bands need their width
        self.weights.show_sensitivity(
            analysis.sensitivity, {b.id: b.quote.provider for b in self.session.evaluation.bids}
        )
        self.charts.set_inputs(uncertainty=analysis.uncertainty, sensitivity=analysis.sensitivity)
        self.requests.show_bid(
            self.session,
            self.comparison.selected_bid_id(),
            analysis.value,
            plan_values=analysis.plan_values,
        )
        self._remember_shown(analysis.uncertainty)

    def _show_value(self, analysis) -> None:
        """The evidence worth asking for, once valued after the bands (gui/rescoring.py)."""
        if analysis.evaluation == self.session.evaluation:
            self.requests.show_bid(
                self.session,
                self.comparison.selected_bid_id(),
                analysis.value,
                plan_values=analysis.plan_values,
            )

    def _remember_shown(self, uncertainty=None) -> None:
        """The table as shown now kept for the next start's first paint (issue 24): once the new
        scores are shown and again with the bands. Core writes it, as at every command-line edit,
        on the commit lane after the edit's own commit (issue 32: ~10 ms a write, and the check
        of the table kept before, off the window's thread)."""
        from clusterbid.core.comparison_table import keep_shown_table
        from clusterbid.core.shown_scorecard import read_shown

        scorecard, resting = self.model.scorecard, self.model.resting

        def keep(document: EvaluationDocument) -> None:
            if uncertainty is None and read_shown(document.path) is not None:
                return  # without bands, a table kept for this very state (perhaps with them) stays
            keep_shown_table(document, scorecard, uncertainty, resting)

        self.session.write_behind(keep)

    def _on_bid_selected(self, bid_id: str | None) -> None:
        row = None if bid_id is None else self.model.row_of(bid_id)
        self.details.show_bid(
            self.model.scorecard, None if row is None else self.model.score_at(row)
        )
        self.requests.show_bid(self.session, bid_id)
        if bid_id:
            self.outline.select_bid(bid_id)

    # -- edits ---------------------------------------------------------------------------------------
    def _wizard_draft(self):
        from clusterbid.gui.wizard import DraftStore

        # The draft sits beside the app's other data, so a crash mid-wizard loses nothing typed.
        return DraftStore(self.settings.data_dir / "bid-wizard-draft.json")

    def _select_after_edit(self, bid_id: str) -> None:
        self.pending_selection = bid_id  # selected once the edit is scored and shown

    def apply_workload(self, workload) -> None:
        from clusterbid.gui.edits import with_workload

        self.bids.apply(
            lambda: with_workload(self.session.evaluation, workload), "Edit workload", wait=False
        )

    def apply_weights(self, weights: dict, merge_key: object) -> None:
        from clusterbid.gui.edits import with_weights

        try:
            new = with_weights(self.session.evaluation, weights)
        except InputError as exc:
            self.statusBar().showMessage(str(exc).splitlines()[-1].strip(" -"), 8000)
            self.weights.show_weights(self.session.evaluation.policy.weights)
            return
        self.session.apply(new, "Change weights", merge_key, wait=False)

    def switch_document(self, document: EvaluationDocument) -> None:
        self.session.switch_to(document)
        self.settings.note_opened(document.path)

    def show_nccl_runs(self, path: Path, runs: list, summary: str) -> None:
        from clusterbid.gui.nccl_log import chart_run

        self.nccl_runs = runs
        self.charts.set_inputs(nccl_result=chart_run(runs))
        dialogs.show_info(
            self,
            f"nccl-tests log: {path.name}",
            f"Read {len(runs)} run(s) from {path.name}:\n\n{summary}",
        )

    # -- view and help -------------------------------------------------------------------------------
    def show_workload_editor(self) -> None:
        self.workload_dock.show()
        self.workload_dock.raise_()
        self.workload_editor.show_workload(self.session.evaluation.workload)
        first = next(iter(self.workload_editor.editors.values()))
        first.setFocus()

    def zoom_by(self, direction: int) -> None:
        factor = self.zoom_layout.step(direction)
        self.settings.set_zoom(factor)
        self.statusBar().showMessage(f"Presentation zoom {factor:.0%}", 3000)

    def zoom_reset(self) -> None:
        self.settings.set_zoom(self.zoom_layout.set(1.0))

    def showEvent(self, event) -> None:  # noqa: N802 (Qt API)
        super().showEvent(event)
        if not getattr(
            self, "_kept_on_screen", False
        ):  # once the frame is known: all of it on screen
            self._kept_on_screen = True
            QTimer.singleShot(0, lambda: keep_on_screen(self))
        # A zoom kept from the last session: the panes are laid out for it once the window has its
        # size on screen, as after Ctrl+Plus (a wide table narrows the outline, never scrolls).
        if not getattr(self, "_zoom_laid_out", False) and abs(self.zoom.factor - 1.0) > 1e-6:
            self._zoom_laid_out = True
            QTimer.singleShot(0, self.zoom_layout.relayout)

    def fill_recent_menu(self) -> None:
        menu = self.actions_.recent_menu
        menu.clear()
        recent = self.settings.recent_files()
        for number, path in enumerate(recent, start=1):
            action = menu.addAction(f"&{number} {path.name}")
            action.setToolTip(str(path))
            action.triggered.connect(
                lambda _checked=False, p=path: self.evaluations.open_evaluation(p)
            )
        if not recent:
            menu.addAction("No recent evaluations").setEnabled(False)

    # -- state -------------------------------------------------------------------------------------
    def _restore_state(self) -> None:
        geometry = self.settings.window_state("geometry")
        if geometry is not None:
            self.restoreGeometry(geometry)
        state = self.settings.window_state("state")
        if state is not None:
            self.restoreState(state)
        for splitter in (self.main_splitter, self.table_splitter):
            saved = self.settings.window_state(splitter.objectName())
            if saved is not None:
                splitter.restoreState(saved)

    def save_state(self) -> None:
        self.settings.set_window_state("geometry", self.saveGeometry())
        self.settings.set_window_state("state", self.saveState())
        for splitter in (self.main_splitter, self.table_splitter):
            self.settings.set_window_state(splitter.objectName(), splitter.saveState())
        self.settings.sync()

    def closeEvent(self, event) -> None:  # noqa: N802
        self.session.lane.settle()  # every edit made is written (and a refusal said) first
        self.save_state()
        for shown in list(
            self.evaluations.serving_windows
        ):  # one app: its serving windows close with it
            shown.close()
        for name in self.tasks.running():
            if not name.startswith(
                "memo"
            ):  # a memo being written or signed is finished and recorded
                self.tasks.cancel(name)
        self.tasks.wait_for_done(30_000)
        QCoreApplication.sendPostedEvents()  # deliver finished memo work before the document closes
        self.session.close()
        super().closeEvent(event)

    # -- drag and drop: bid sheets are imported, nccl-tests logs read and shown -----------------------
    def dragEnterEvent(self, event) -> None:  # noqa: N802 (Qt API)
        if dropped_paths(event.mimeData()):
            event.acceptProposedAction()

    def dragMoveEvent(self, event) -> None:  # noqa: N802
        if dropped_paths(event.mimeData()):
            event.acceptProposedAction()

    def dropEvent(self, event) -> None:  # noqa: N802
        paths = dropped_paths(event.mimeData())
        if not paths:
            return
        event.acceptProposedAction()
        # Documents dropped here are evaluators' copies coming back (issue 41): the panel window
        # opens on its merge, which checks each copy and says why one is refused.
        copies = [p for p in paths if p.suffix.lower() == DOCUMENT_SUFFIX]
        others = [p for p in paths if p.suffix.lower() != DOCUMENT_SUFFIX]
        if copies:
            self.info.show_panel()
            self.info.panel_dialog.merge(copies)
        if others:
            self.interchange.import_paths(others)
