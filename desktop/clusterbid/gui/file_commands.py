"""File menu handlers for bid sheets, comparison tables and nccl-tests logs: import (menu or
drop), export. One object per main window, given what it needs."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from clusterbid.core.errors import InputError
from clusterbid.gui import dialogs

if TYPE_CHECKING:
    from PySide6.QtWidgets import QMainWindow

    from clusterbid.gui.background import BackgroundTasks
    from clusterbid.gui.session import Session

BID_SUFFIXES = (".xlsx", ".csv", ".json")
LOG_SUFFIXES = (".log", ".txt")
DOCUMENT_SUFFIX = ".clusterbid"  # dropped on the lead's window: evaluators' copies to merge


def dropped_paths(mime) -> list[Path]:
    """The local files of a drag that ClusterBid can read (bid sheets, nccl-tests logs,
    evaluators' copies of this evaluation)."""
    if not mime.hasUrls():
        return []
    paths = [Path(url.toLocalFile()) for url in mime.urls() if url.isLocalFile()]
    known = BID_SUFFIXES + LOG_SUFFIXES + (DOCUMENT_SUFFIX,)
    return [p for p in paths if p.suffix.lower() in known]


class FileCommands:
    """Import and export for one window: the session bids go into, the runner reading runs on, the
    scorecard shown (read when a command runs), and where a read nccl-tests log is shown."""

    def __init__(
        self,
        window: QMainWindow,
        session: Session,
        tasks: BackgroundTasks,
        *,
        scorecard: Callable[[], Any],
        show_nccl_runs: Callable[[Path, list, str], None],
    ) -> None:
        self.window, self.session, self.tasks = window, session, tasks
        self._scorecard, self._show_nccl_runs = scorecard, show_nccl_runs

    def export_template(self) -> None:
        path = dialogs.save_file(
            self.window, "Export a bid template", "bid-template.xlsx", "Templates (*.xlsx *.csv)"
        )
        if path:
            from clusterbid.core.interchange import export_template

            self._write(lambda: export_template(Path(path)), "the bid template", path)

    def export_comparison(self) -> None:
        export_comparison_dialog(self.window, self.tasks, self._scorecard(), "comparison.xlsx")

    def _write(self, write, what: str, path: str) -> None:  # quick: the template
        try:
            write()
        except (InputError, OSError) as exc:
            dialogs.show_problem(self.window, f"Could not export {what}", str(exc))
            return
        self.window.statusBar().showMessage(f"Exported {what} to {path}", 8000)

    def import_bids_dialog(self) -> None:
        path = dialogs.open_file(self.window, "Import bids", dialogs.BID_FILES)
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
                dialogs.show_problem(
                    self.window,
                    "Cannot import this file",
                    f"{path.name}: ClusterBid reads bid sheets ({', '.join(BID_SUFFIXES)}) "
                    f"and nccl-tests logs ({', '.join(LOG_SUFFIXES)}).",
                )

    def _import_bid_file(self, path: Path) -> None:
        from clusterbid.operations.bid_import import read_bid_sheet

        self.tasks.run(
            f"import {path}",
            lambda progress: read_bid_sheet(path, progress, progress),
            self._on_imported,
            lambda exc: dialogs.show_task_error(self.window, f"Could not import {path.name}", exc),
        )

    def _on_imported(self, report) -> None:
        if not report.ok:
            dialogs.show_problem(
                self.window,
                "Nothing was imported",
                f"{report.summary()}. Fix the cells listed below and import the file again.",
                report.as_text(),
            )
            return
        from clusterbid.operations.bid_import import evaluation_with_import

        try:  # one edit, one undo step and one audit row, worded as `clusterbid import` words it
            new, label = evaluation_with_import(self.session.evaluation, report)
        except InputError as exc:
            dialogs.show_problem(self.window, "Nothing was imported", str(exc))
            return
        if self.session.apply(new, label):
            self.window.statusBar().showMessage(report.summary(), 10_000)

    def read_nccl_log(self, path: Path) -> None:
        from clusterbid.gui.nccl_log import read_log, summarise_runs

        def done(runs) -> None:
            self._show_nccl_runs(path, runs, summarise_runs(runs))

        self.tasks.run(
            f"read {path}",
            lambda progress: read_log(path),
            done,
            lambda exc: dialogs.show_task_error(self.window, f"Could not read {path.name}", exc),
        )


def export_comparison_in_background(window, tasks: BackgroundTasks, scorecard, path: str) -> None:
    """The comparison the window shows, written by the shared operation on the window's runner
    (the training and the serving window alike)."""
    from clusterbid.operations.comparison import export_comparison

    tasks.run(
        "comparison export",
        lambda progress: export_comparison(scorecard, Path(path), progress, progress),
        lambda _exported: window.statusBar().showMessage(
            f"Exported the comparison to {path}", 8000
        ),
        lambda exc: dialogs.show_task_error(window, "Could not export the comparison", exc),
    )


def export_comparison_dialog(window, tasks: BackgroundTasks, scorecard, suggested: str) -> None:
    """File > Export Comparison… of any window: ask where, then write it in the background."""
    path = dialogs.save_file(window, "Export the comparison", suggested, "Tables (*.xlsx *.csv)")
    if path:
        export_comparison_in_background(window, tasks, scorecard, path)
