"""A training run in the window (gui/evaluation_window.py): the outline and the workload docked on
the left, the ranked comparison with its score matrix and weights, the details with the evidence
worth asking for and the charts in tabs on the right (laid out by gui/main_window_layout.py). The
first paint shows real figures, scored on the window's thread; every edit after is re-scored off
it, then its bands and tipping points, then the value of asking for evidence (gui/rescoring.py),
each shown as it arrives (gui/main_window_figures.py). The window of a training run is the app's
main window: it opens other evaluations, imports bid sheets and keeps its layout for next time."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import QSize

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
from clusterbid.gui.file_commands import DOCUMENT_SUFFIX, FileCommands
from clusterbid.gui.kind_view import KindView
from clusterbid.gui.main_window_figures import ShownFigures
from clusterbid.gui.main_window_layout import build_layout
from clusterbid.gui.outline import OutlineTree
from clusterbid.gui.rescoring import Rescorer
from clusterbid.gui.task_progress import TaskProgress
from clusterbid.gui.workload_editor import WorkloadEditor
from clusterbid.gui.zoom_layout import ZoomLayout


class TrainingView(KindView):
    object_name = "main_window"
    preferred_size = QSize(1340, 780)  # no taller than a 1366x768 laptop's screen
    # Its zoom re-measures every pane as it sets the font, and Actual Size puts back the layout
    # the officer had: a second pass on the font's event would undo that.
    relayout_on_font_change = False

    def bid_options(self) -> dict[str, Any]:
        return {"draft_store": self._wizard_draft, "after_edit": self._select_after_edit}

    def build(self, document: EvaluationDocument) -> list[Any]:
        w: Any = self.window
        w.rescorer = Rescorer(w.tasks, w)
        w.zoom_layout = ZoomLayout(w)
        w.pending_selection = None
        w.nccl_runs = []
        first = score_evaluation(document.evaluation)  # first paint shows real figures
        w.model = ScorecardTableModel(first)
        w.comparison = ComparisonView(w.model)
        w.weights = WeightsPanel()
        w.score_matrix = ScoreMatrix()
        w.details = DetailsPanel()
        w.requests = EvidenceRequestsPanel()
        w.requests.written.connect(lambda text: w.statusBar().showMessage(text, 30_000))
        w.charts = ChartsPanel()
        w.charts.font_scale = w.zoom.factor
        w.outline = OutlineTree()
        w.workload_editor = WorkloadEditor()
        build_layout(w)
        w.figures = ShownFigures(w)  # what the window shows as results arrive
        w.evaluations = EvaluationFiles(
            w,
            w.session,
            w.settings,
            switch_to=self.switch_document,
            created=self.show_workload_editor,
        )
        w.acceptance = AcceptanceCommands(w, w.session, w.comparison.selected_bid_id)
        w.interchange = FileCommands(
            w,
            w.session,
            w.tasks,
            scorecard=lambda: w.model.scorecard,
            show_nccl_runs=self.show_nccl_runs,
        )
        return [w.outline_dock, w.workload_dock]

    def start(self, document: EvaluationDocument, note: str | None) -> None:
        w: Any = self.window
        w.comparison.set_empty_hint(
            EmptyHint(w.actions_.edit_workload, w.actions_.add_bid, w.actions_.import_bids)
        )
        w.task_progress = TaskProgress(w, w.tasks)
        w.rescorer.scored.connect(w.figures.scorecard)
        w.rescorer.rested.connect(w.figures.rests)
        w.rescorer.analysed.connect(w.figures.analysis)
        w.rescorer.valued.connect(w.figures.value)
        w.rescorer.failed.connect(lambda text: w.statusBar().showMessage(text, 10_000))
        w.comparison.bid_selected.connect(self._on_bid_selected)
        w.outline.bid_selected.connect(w.comparison.select_bid)
        w.outline.workload_selected.connect(self.show_workload_editor)
        w.weights.weights_edited.connect(self.apply_weights)
        w.workload_editor.workload_edited.connect(self.apply_workload)
        w.comparison.doubleClicked.connect(lambda _index: w.bids.edit_bid())
        self._restore_state()
        w.figures.evaluation(document.evaluation)
        first = w.model.scorecard  # the first figures, scored in `build`
        w.figures.scorecard(first)
        w.rescorer.rest(first)  # what its ranks rest on, derived on a worker
        w.rescorer.analyse(first)  # the bands and tipping points follow the first figures
        w.settings.note_opened(document.path)
        if note:
            w.statusBar().showMessage(note, 15_000)

    # -- the kind's figures ------------------------------------------------------------------------
    def evaluation_changed(self, evaluation: Any) -> None:
        self.window.figures.evaluation(evaluation)
        self.window.rescorer.request(evaluation)

    def scorecard(self) -> Any:
        return self.window.model.scorecard

    def selected_bid_id(self) -> str | None:
        return self.window.comparison.selected_bid_id()  # type: ignore[no-any-return]

    def _on_bid_selected(self, bid_id: str | None) -> None:
        w: Any = self.window
        row = None if bid_id is None else w.model.row_of(bid_id)
        w.details.show_bid(w.model.scorecard, None if row is None else w.model.score_at(row))
        w.requests.show_bid(w.session, bid_id)
        if bid_id:
            w.outline.select_bid(bid_id)

    def export_comparison(self) -> None:
        self.window.interchange.export_comparison()

    def zoom_to(self, factor: float) -> float:
        return float(self.window.zoom_layout.set(factor))

    def relayout(self) -> None:
        self.window.zoom_layout.relayout()

    # -- edits -------------------------------------------------------------------------------------
    def _wizard_draft(self) -> Any:
        from clusterbid.gui.wizard import DraftStore

        # The draft sits beside the app's other data, so a crash mid-wizard loses nothing typed.
        return DraftStore(self.window.settings.data_dir / "bid-wizard-draft.json")

    def _select_after_edit(self, bid_id: str) -> None:
        self.window.pending_selection = bid_id  # selected once the edit is scored and shown

    def apply_workload(self, workload: Any) -> None:
        from clusterbid.gui.edits import with_workload

        session = self.window.session
        self.window.bids.apply(
            lambda: with_workload(session.evaluation, workload), "Edit workload", wait=False
        )

    def apply_weights(self, weights: dict[str, Any], merge_key: object) -> None:
        from clusterbid.gui.edits import with_weights

        w: Any = self.window
        try:
            new = with_weights(w.session.evaluation, weights)
        except InputError as exc:
            w.statusBar().showMessage(str(exc).splitlines()[-1].strip(" -"), 8000)
            w.weights.show_weights(w.session.evaluation.policy.weights)
            return
        w.session.apply(new, "Change weights", merge_key, wait=False)

    def switch_document(self, document: EvaluationDocument) -> None:
        self.window.session.switch_to(document)
        self.window.settings.note_opened(document.path)

    def show_nccl_runs(self, path: Path, runs: list[Any], summary: str) -> None:
        from clusterbid.gui.nccl_log import chart_run

        self.window.nccl_runs = runs
        self.window.charts.set_inputs(nccl_result=chart_run(runs))
        dialogs.show_info(
            self.window,
            f"nccl-tests log: {path.name}",
            f"Read {len(runs)} run(s) from {path.name}:\n\n{summary}",
        )

    # -- view --------------------------------------------------------------------------------------
    def show_workload_editor(self) -> None:
        w: Any = self.window
        w.workload_dock.show()
        w.workload_dock.raise_()
        w.workload_editor.show_workload(w.session.evaluation.workload)
        first = next(iter(w.workload_editor.editors.values()))
        first.setFocus()

    def fill_recent_menu(self) -> None:
        w: Any = self.window
        menu = w.actions_.recent_menu
        menu.clear()
        recent = w.settings.recent_files()
        for number, path in enumerate(recent, start=1):
            action = menu.addAction(f"&{number} {path.name}")
            action.setToolTip(str(path))
            action.triggered.connect(
                lambda _checked=False, p=path: w.evaluations.open_evaluation(p)
            )
        if not recent:
            menu.addAction("No recent evaluations").setEnabled(False)

    # -- state, kept for the next start ------------------------------------------------------------
    def _restore_state(self) -> None:
        w: Any = self.window
        geometry = w.settings.window_state("geometry")
        if geometry is not None:
            w.restoreGeometry(geometry)
        state = w.settings.window_state("state")
        if state is not None:
            w.restoreState(state)
        for splitter in (w.main_splitter, w.table_splitter):
            saved = w.settings.window_state(splitter.objectName())
            if saved is not None:
                splitter.restoreState(saved)

    def save_state(self) -> None:
        w: Any = self.window
        w.settings.set_window_state("geometry", w.saveGeometry())
        w.settings.set_window_state("state", w.saveState())
        for splitter in (w.main_splitter, w.table_splitter):
            w.settings.set_window_state(splitter.objectName(), splitter.saveState())
        w.settings.sync()

    def before_close(self) -> None:
        self.save_state()
        for shown in list(self.window.evaluations.serving_windows):  # one app: they close with it
            shown.close()

    # -- drops: bid sheets are imported, nccl-tests logs read and shown ----------------------------
    def accepts_drops(self) -> bool:
        return True

    def dropped(self, paths: list[Path]) -> None:
        # Documents dropped here are evaluators' copies coming back (issue 41): the panel window
        # opens on its merge, which checks each copy and says why one is refused.
        copies = [p for p in paths if p.suffix.lower() == DOCUMENT_SUFFIX]
        others = [p for p in paths if p.suffix.lower() != DOCUMENT_SUFFIX]
        if copies:
            self.window.info.show_panel()
            self.window.info.panel_dialog.merge(copies)
        if others:
            self.window.interchange.import_paths(others)
