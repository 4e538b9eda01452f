"""The main window: outline, ranked comparison with weights, details and charts, workload editor."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QCoreApplication, QSize, QTimer
from PySide6.QtWidgets import (
    QMainWindow,
)

from clusterbid.core.errors import InputError
from clusterbid.core.scoring import score_evaluation
from clusterbid.core.store import EvaluationDocument
from clusterbid.gui import dialogs
from clusterbid.gui.acceptance_dialog import AcceptanceCommands
from clusterbid.gui.charts.charts_panel import ChartsPanel
from clusterbid.gui.comparison.comparison_view import ComparisonView
from clusterbid.gui.comparison.empty_hint import EmptyHint
from clusterbid.gui.comparison.score_matrix import ScoreMatrix
from clusterbid.gui.comparison.scorecard_table_model import ScorecardTableModel
from clusterbid.gui.comparison.weights_panel import WeightsPanel
from clusterbid.gui.details_panel import DetailsPanel
from clusterbid.gui.evaluation_files import EvaluationFiles
from clusterbid.gui.evidence_requests_panel import EvidenceRequestsPanel
from clusterbid.gui.file_commands import DOCUMENT_SUFFIX, FileCommands, dropped_paths
from clusterbid.gui.main_window_figures import ShownFigures
from clusterbid.gui.main_window_layout import build_layout
from clusterbid.gui.outline import OutlineTree
from clusterbid.gui.rescoring import Rescorer
from clusterbid.gui.screen_fit import fit_on_screen, keep_on_screen
from clusterbid.gui.settings import AppSettings
from clusterbid.gui.task_progress import TaskProgress
from clusterbid.gui.window_actions import WindowActions, menu_groups
from clusterbid.gui.window_parts import WindowParts
from clusterbid.gui.workload_editor import WorkloadEditor
from clusterbid.gui.zoom import PresentationZoom
from clusterbid.gui.zoom_layout import ZoomLayout


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
        build_layout(self)
        self.figures = ShownFigures(self)  # what the window shows as results arrive
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
        self.figures.evaluation(document.evaluation)
        self.figures.scorecard(scorecard)
        self.rescorer.analyse(scorecard)  # the bands and tipping points follow the first figures
        settings.note_opened(document.path)
        if note:
            self.statusBar().showMessage(note, 15_000)

    # -- construction ------------------------------------------------------------------------------
    def _connect(self) -> None:
        self.session.evaluation_changed.connect(self._on_evaluation_changed)
        self.rescorer.scored.connect(self.figures.scorecard)
        self.rescorer.analysed.connect(self.figures.analysis)
        self.rescorer.valued.connect(self.figures.value)
        self.rescorer.failed.connect(lambda text: self.statusBar().showMessage(text, 10_000))
        self.comparison.bid_selected.connect(self._on_bid_selected)
        self.outline.bid_selected.connect(self.comparison.select_bid)
        self.outline.workload_selected.connect(self.show_workload_editor)
        self.weights.weights_edited.connect(self.apply_weights)
        self.workload_editor.workload_edited.connect(self.apply_workload)
        self.comparison.doubleClicked.connect(lambda _index: self.bids.edit_bid())

    # -- reacting to changes -------------------------------------------------------------------------
    def _on_evaluation_changed(self, evaluation) -> None:
        self.figures.evaluation(evaluation)
        self.rescorer.request(evaluation)

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
