"""How the main window is laid out (gui/main_window.py builds its parts, then calls this): never
scrolled sideways, the ranking and its weights on the left, the words on the right in tabs."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QDockWidget,
    QScrollArea,
    QSplitter,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from clusterbid.gui.kind_view import side_by_side

if TYPE_CHECKING:
    from clusterbid.gui.main_window import MainWindow


def build_layout(window: MainWindow) -> None:
    """The window's panes: what decides on the left (the window's summary line, ranking, score
    matrix, weights), the words on the right (details and evidence requests, charts), outline and
    workload docked."""
    left = QWidget()
    left_layout = QVBoxLayout(left)
    left_layout.setContentsMargins(0, 0, 0, 0)
    left_layout.addWidget(window.summary)
    window.table_splitter = QSplitter(Qt.Orientation.Vertical)
    window.table_splitter.setObjectName("table_splitter")
    window.table_splitter.addWidget(window.comparison)
    window.table_splitter.addWidget(window.score_matrix)  # the criteria right above their weights
    weights_scroll = QScrollArea()
    weights_scroll.setWidgetResizable(True)
    weights_scroll.setWidget(window.weights)
    window.table_splitter.addWidget(weights_scroll)
    window.table_splitter.setSizes([230, 170, 260])
    left_layout.addWidget(window.table_splitter, 1)
    window.side_tabs = QTabWidget()
    details_split = QSplitter(
        Qt.Orientation.Vertical
    )  # the bid, then the evidence worth asking for
    details_split.addWidget(window.details)
    details_split.addWidget(window.requests)
    details_split.setSizes([520, 200])
    window.side_tabs.addTab(details_split, "&Details")
    window.side_tabs.addTab(window.charts, "C&harts")
    window.main_splitter = side_by_side(left, window.side_tabs, [720, 360])
    window.setCentralWidget(window.main_splitter)
    window.outline_dock = _dock(window, "&Outline", "outline_dock", window.outline)
    editor_scroll = QScrollArea()
    editor_scroll.setWidgetResizable(True)
    editor_scroll.setWidget(window.workload_editor)
    window.workload_dock = _dock(window, "&Workload", "workload_dock", editor_scroll)
    window.addDockWidget(Qt.DockWidgetArea.LeftDockWidgetArea, window.outline_dock)
    window.addDockWidget(Qt.DockWidgetArea.LeftDockWidgetArea, window.workload_dock)
    window.tabifyDockWidget(window.outline_dock, window.workload_dock)
    window.outline_dock.raise_()
    window.resizeDocks([window.outline_dock], [300], Qt.Orientation.Horizontal)


def _dock(window: MainWindow, title: str, name: str, widget: QWidget) -> QDockWidget:
    dock = QDockWidget(title.replace("&", ""), window)
    dock.setObjectName(name)
    dock.setWidget(widget)
    dock.toggleViewAction().setText(title)
    return dock
