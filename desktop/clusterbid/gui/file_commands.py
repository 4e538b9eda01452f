"""File menu and drag-and-drop handlers of the main window: open, new, copy, import, export."""

from __future__ import annotations

from pathlib import Path

from clusterbid.core.errors import InputError
from clusterbid.core.evaluation import Evaluation
from clusterbid.core.store import EvaluationDocument
from clusterbid.gui import dialogs
from clusterbid.gui.edits import with_bids_added
from clusterbid.gui.opening import open_document

BID_SUFFIXES = (".xlsx", ".csv", ".json")
LOG_SUFFIXES = (".log", ".txt")


class FileCommands:
    """Mixed into MainWindow; uses its session, settings, tasks and status bar."""

    serving_windows: list  # set per window in MainWindow.__init__

    # -- evaluations ----------------------------------------------------------------------------
    def open_evaluation_dialog(self) -> None:
        path = dialogs.open_file(self, "Open an evaluation", dialogs.EVALUATION_FILES)
        if path:
            self.open_evaluation(Path(path))

    def open_evaluation(self, path: Path) -> bool:
        try:
            document = open_document(Path(path), self.settings)
        except InputError as exc:
            dialogs.show_problem(self, "Cannot open this evaluation", str(exc))
            return False
        if self._opened_as_serving(document):
            return True
        self.switch_document(document)
        if document.path != Path(path):
            self.statusBar().showMessage(f"Opened {Path(path).name}; your edits are kept in {document.path}", 10_000)
        return True

    def _opened_as_serving(self, document: EvaluationDocument) -> bool:
        """A serving evaluation opens in its own read-only window beside this one. It is not
        remembered as the last evaluation: that window has no way back to the training one."""
        from PySide6.QtCore import Qt

        from clusterbid.core.workloads import is_serving

        if not is_serving(document.evaluation):
            return False
        from clusterbid.gui.serving_window import ServingWindow

        shown = ServingWindow(document)
        shown.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        # Held here so a second serving window does not drop (and silently delete) the first.
        self.serving_windows.append(shown)
        shown.destroyed.connect(lambda _obj=None, w=shown: self.serving_windows.remove(w))
        self.serving_window = shown
        shown.show()
        return True

    def new_evaluation(self) -> None:
        path = dialogs.save_file(self, "Where to keep the new evaluation", "new-evaluation.clusterbid",
                                 "Evaluations (*.clusterbid)")
        if not path:
            return
        path = Path(path) if path.endswith(".clusterbid") else Path(path + ".clusterbid")
        current = self.session.evaluation
        # The current job is the most likely starting point; the officer edits it in the workload pane.
        evaluation = Evaluation(title="New evaluation", currency=current.currency, workload=current.workload)
        try:
            if path.exists():
                path.unlink()  # the save dialog already asked to replace it
            document = EvaluationDocument.create(path, evaluation)
        except (InputError, OSError) as exc:
            dialogs.show_problem(self, "Cannot create the evaluation", str(exc))
            return
        self.switch_document(document)
        self.show_workload_editor()

    def save_copy(self) -> None:
        stem = self.session.document.path.stem
        path = dialogs.save_file(self, "Save a copy", f"{stem}-copy.clusterbid", "Evaluations (*.clusterbid)")
        if not path:
            return
        try:
            written = self.session.document.save_copy(Path(path))
        except (InputError, OSError) as exc:
            dialogs.show_problem(self, "Could not save the copy", str(exc))
            return
        self.statusBar().showMessage(f"Saved a copy to {written}", 8000)

    # -- interchange ----------------------------------------------------------------------------
    def export_template(self) -> None:
        path = dialogs.save_file(self, "Export a bid template", "bid-template.xlsx", "Templates (*.xlsx *.csv)")
        if path:
            from clusterbid.core.interchange import export_template

            self._write(lambda: export_template(Path(path)), "the bid template", path)

    def export_comparison(self) -> None:
        path = dialogs.save_file(self, "Export the comparison", "comparison.xlsx", "Tables (*.xlsx *.csv)")
        if path:
            from clusterbid.core.interchange import export_table
            from clusterbid.core.report import comparison_rows

            scorecard = self.model.scorecard
            self._write(lambda: export_table(Path(path), comparison_rows(scorecard), scorecard.evaluation.title),
                        "the comparison", path)

    def _write(self, write, what: str, path: str) -> None:
        try:
            write()
        except (InputError, OSError) as exc:
            dialogs.show_problem(self, f"Could not export {what}", str(exc))
            return
        self.statusBar().showMessage(f"Exported {what} to {path}", 8000)

    def import_bids_dialog(self) -> None:
        path = dialogs.open_file(self, "Import bids", dialogs.BID_FILES)
        if path:
            self.import_paths([Path(path)])

    def import_paths(self, paths: list[Path]) -> None:
        """Bid sheets are imported as bids; nccl-tests logs are read and shown."""
        for path in paths:
            suffix = path.suffix.lower()
            if suffix in BID_SUFFIXES:
                self._import_bid_file(path)
            elif suffix in LOG_SUFFIXES:
                self.read_nccl_log(path)
            else:
                dialogs.show_problem(self, "Cannot import this file",
                                     f"{path.name}: ClusterBid reads bid sheets ({', '.join(BID_SUFFIXES)}) "
                                     f"and nccl-tests logs ({', '.join(LOG_SUFFIXES)}).")

    def _import_bid_file(self, path: Path) -> None:
        from clusterbid.core.interchange import import_bids

        def work(progress):
            progress(0.1, f"reading {path.name}")
            return import_bids(path)

        self.tasks.run(f"import {path}", work, self._on_imported,
                       lambda exc: self.show_task_error(f"Could not import {path.name}", exc))

    def _on_imported(self, report) -> None:
        if not report.ok:
            dialogs.show_problem(self, "Nothing was imported",
                                 f"{report.summary()}. Fix the cells listed below and import the file again.",
                                 report.as_text())
            return
        try:
            new = with_bids_added(self.session.evaluation, report.bids, f"importing {report.source}")
        except InputError as exc:
            dialogs.show_problem(self, "Nothing was imported", str(exc))
            return
        if self.session.apply(new, f"Import {len(report.bids)} bid(s)"):
            self.statusBar().showMessage(report.summary(), 10_000)

    def read_nccl_log(self, path: Path) -> None:
        from clusterbid.gui.nccl_log import read_log, summarise_runs

        def done(runs) -> None:
            self.show_nccl_runs(path, runs, summarise_runs(runs))

        self.tasks.run(f"read {path}", lambda progress: read_log(path), done,
                       lambda exc: self.show_task_error(f"Could not read {path.name}", exc))

    def show_task_error(self, title: str, exc: Exception) -> None:
        dialogs.show_task_error(self, title, exc)

    # -- drag and drop -----------------------------------------------------------------------------
    @staticmethod
    def dropped_paths(mime) -> list[Path]:
        if not mime.hasUrls():
            return []
        paths = [Path(url.toLocalFile()) for url in mime.urls() if url.isLocalFile()]
        return [p for p in paths if p.suffix.lower() in BID_SUFFIXES + LOG_SUFFIXES]

    def dragEnterEvent(self, event) -> None:  # noqa: N802 (Qt API)
        if self.dropped_paths(event.mimeData()):
            event.acceptProposedAction()

    def dragMoveEvent(self, event) -> None:  # noqa: N802
        if self.dropped_paths(event.mimeData()):
            event.acceptProposedAction()

    def dropEvent(self, event) -> None:  # noqa: N802
        paths = self.dropped_paths(event.mimeData())
        if paths:
            event.acceptProposedAction()
            self.import_paths(paths)
