"""The first window a start paints: the ranking table as the app last showed it for this document,
read with sqlite3 and json alone (core/shown_scorecard.py), so it appears before PySide6's widgets
are joined by pydantic, numpy and the cost model. The real window replaces it as soon as it is
built; the status line says these are the scores as last shown, being recomputed."""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QByteArray, QEventLoop, QSize
from PySide6.QtWidgets import QApplication, QHeaderView, QMainWindow, QTableWidget, QTableWidgetItem

from clusterbid.core.shown_scorecard import read_shown
from clusterbid.gui.screen_fit import fit_on_screen

if TYPE_CHECKING:
    from clusterbid.gui.settings import AppSettings


def document_to_open(path: str | None, settings: AppSettings) -> Path | None:
    """The .clusterbid the start will open, as startup_document chooses it (None: not known cheaply)."""
    if path is not None:
        return Path(path) if Path(path).suffix == ".clusterbid" else None
    last = settings.last_evaluation()
    if last is not None and last.exists():
        return last if last.suffix == ".clusterbid" else None
    demo = settings.demo_path()
    return demo if demo.exists() else None


def first_look(path: Path | None, geometry: QByteArray | None = None) -> QMainWindow | None:
    """The window painted from the stored table, shown; None when there is nothing current to show."""
    if path is None:
        return None
    payload = read_shown(path)
    if payload is None:
        return None
    window = QMainWindow()
    window.setObjectName("first_look")
    window.setWindowTitle(f"{payload['title']} — {path.name} — ClusterBid")  # as the main window's
    table = QTableWidget(len(payload["rows"]), len(payload["columns"]))
    table.setHorizontalHeaderLabels(payload["columns"])
    table.verticalHeader().hide()
    table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
    for r, row in enumerate(payload["rows"]):
        for c, text in enumerate(row):
            table.setItem(r, c, QTableWidgetItem(text))
    table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
    window.setCentralWidget(table)
    window.statusBar().showMessage(
        "Scores as last shown for this evaluation; opening it and recomputing…"
    )
    if geometry is not None:
        window.restoreGeometry(geometry)
    else:
        fit_on_screen(window, QSize(1200, 760))
    window.show()
    return window


def load_while_responsive(
    app: QApplication, look: QMainWindow, load: Callable[[], object], slice_ms: int = 20
) -> bool:
    """Run `load` (the imports the real window needs: most of a start) on a second thread while
    the first look handles its events: it repaints, moves and closes like any window. False when
    the officer closed it meanwhile (nothing more is opened), True once `load` is done."""

    def run() -> None:
        try:
            load()
        except Exception:
            pass  # the main thread imports again and reports it there

    worker = threading.Thread(target=run, name="first-look-imports", daemon=True)
    worker.start()
    while worker.is_alive() and look.isVisible():
        app.processEvents(QEventLoop.ProcessEventsFlag.AllEvents, slice_ms)
        worker.join(slice_ms / 1000)
    return look.isVisible()


def import_main_window() -> None:
    """What opening the main window imports first: the models, the cost model, the store, Qt's
    widgets for the window (importing creates no widget, so a second thread may do it)."""
    import clusterbid.gui.main_window  # noqa: F401
