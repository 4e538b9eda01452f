"""Presentation zoom for the main window: every pane re-measured at the new font, and Actual Size
back to exactly the layout the officer had before zooming.

Setting the application font alone leaves sizes that were measured once (column widths, row
heights, minimum widths, the dock's width) at the old font: text is cut off when zooming in and
widgets stay oversized after Ctrl+0. This module re-measures them and keeps the actual-size layout."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from PySide6.QtCore import QByteArray, QCoreApplication, QSize, Qt
from PySide6.QtWidgets import QDockWidget

from clusterbid.gui.comparison.scorecard_table_model import PROVIDER

if TYPE_CHECKING:
    from clusterbid.gui.main_window import MainWindow

# The outline dock may widen for its names, but never past this share of the window: the
# comparison is what the audience came to read.
DOCK_SHARE = 0.25
DOCK_FLOOR_SHARE = 0.12  # the outline narrows to this when the comparison needs the room
SIDE_MINIMUM = 260  # px: the Details pane still reads as a column of words


@dataclass(frozen=True)
class ActualSizeLayout:
    """The window as it was at 100%, restored by Actual Size."""

    size: QSize
    window_state: QByteArray
    splitters: tuple[QByteArray, ...]


class ZoomLayout:
    def __init__(self, window: MainWindow) -> None:
        self.window = window
        self.actual: ActualSizeLayout | None = None

    def set(self, factor: float) -> float:
        """Zoom to `factor` (clamped to the zoom steps) and lay the window out again."""
        w = self.window
        if abs(w.zoom.factor - 1.0) < 1e-6 and abs(factor - 1.0) > 1e-6:
            self.actual = ActualSizeLayout(
                w.size(), w.saveState(), tuple(s.saveState() for s in self._splitters())
            )
        factor = w.zoom.set(factor)
        QCoreApplication.sendPostedEvents()  # the font changes reach every widget before measuring
        self.relayout()
        if abs(factor - 1.0) < 1e-6 and self.actual is not None:
            self._restore(self.actual)
            self.actual = None
        return factor

    def step(self, direction: int) -> float:
        return self.set(self.window.zoom.next_step(direction))

    def relayout(self) -> None:
        """Re-measure everything sized from the font once: tables, minimum widths, the dock."""
        w = self.window
        view = w.comparison
        view.fit_row_height()
        view.measure_columns()
        if w.model.scorecard is not None:
            w.score_matrix.show_scorecard(w.model.scorecard)
        w.weights.fit_to_font()
        w.workload_editor.fit_to_font()
        w.charts.set_font_scale(w.zoom.factor)
        self._widen_outline()
        self._widen_comparison()

    def _widen_comparison(self) -> None:
        """The comparison's side of the splitter as wide as its shown columns need; the Details
        pane wraps its text, so it gives way, down to SIDE_MINIMUM."""
        w = self.window
        sizes = w.main_splitter.sizes()
        if len(sizes) != 2 or sum(sizes) == 0:
            return
        view = w.comparison
        header = view.horizontalHeader()
        last = header.count() - 1
        needed = sum(view._content_widths[c] for c in range(last) if not header.isSectionHidden(c))
        needed += view.findings_floor()  # the gates column's verdict stays readable
        needed += view.verticalScrollBar().sizeHint().width() + 2 * view.frameWidth() + 4
        deficit = needed - (sum(sizes) - SIDE_MINIMUM)
        floor = int(w.width() * DOCK_FLOOR_SHARE)
        dock = w.outline_dock
        if deficit > 0 and dock.isVisible() and not dock.isFloating():
            # What decides (rank, score, cost, band, gates) before the outline's names, which the
            # table repeats: the dock gives way first, down to its floor, and closes when even that
            # is too wide (View > Outline opens it again; Actual Size puts it back as it was).
            # The provider column may elide down to its floor (fit_columns) before the docks close.
            slack = view._content_widths[PROVIDER] - view.provider_floor()
            if dock.width() - deficit >= floor:
                w.resizeDocks([dock], [dock.width() - deficit], Qt.Orientation.Horizontal)
            elif dock.width() - floor + slack >= deficit:
                w.resizeDocks([dock], [floor], Qt.Orientation.Horizontal)
            else:  # the outline and the workload share the left area (tabs): both close
                for shared in (
                    d
                    for d in w.findChildren(QDockWidget)
                    if not d.isFloating()
                    and w.dockWidgetArea(d) == Qt.DockWidgetArea.LeftDockWidgetArea
                ):
                    shared.hide()
            QCoreApplication.sendPostedEvents()
            sizes = w.main_splitter.sizes()
        left = min(max(sizes[0], needed), sum(sizes) - SIDE_MINIMUM)
        if left > sizes[0]:
            w.main_splitter.setSizes([left, sum(sizes) - left])
        view.fit_columns()

    def _widen_outline(self) -> None:
        """The outline dock as wide as its names and statuses need, within DOCK_SHARE of the window."""
        w = self.window
        tree = w.outline
        tree.resizeColumnToContents(1)
        needed = (
            tree.sizeHintForColumn(0)
            + tree.header().sectionSize(1)
            + tree.verticalScrollBar().sizeHint().width()
            + 2 * tree.frameWidth()
            + 8
        )
        width = min(needed, int(w.width() * DOCK_SHARE))
        if width > w.outline_dock.width():
            w.resizeDocks([w.outline_dock], [width], Qt.Orientation.Horizontal)

    def _restore(self, actual: ActualSizeLayout) -> None:
        w = self.window
        if not (w.isMaximized() or w.isFullScreen()):
            w.resize(actual.size)
        w.restoreState(actual.window_state)
        for splitter, state in zip(self._splitters(), actual.splitters):
            splitter.restoreState(state)
        QCoreApplication.sendPostedEvents()
        w.comparison.fit_columns()

    def _splitters(self):
        return (self.window.main_splitter, self.window.table_splitter)
