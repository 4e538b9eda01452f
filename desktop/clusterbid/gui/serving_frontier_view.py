"""The serving frontier in the app (issue 37): a window beside the serving comparison with one
curve per bid, drawn by core.charts from what the scorecard costed. Opened from View > Serving
Frontier; redrawn from the current scorecard each time it opens."""

from __future__ import annotations

from PySide6.QtWidgets import QDialog, QLabel, QVBoxLayout, QWidget


class FrontierView(QDialog):
    def __init__(self, scorecard, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("serving_frontier")
        self.setWindowTitle("Serving frontier: throughput per GPU against speed per user")
        self.resize(900, 620)
        layout = QVBoxLayout(self)
        note = QLabel(
            "Each curve is one bid at the tensor-parallel degree it was costed at, over every "
            "batch that "
            "fits its GPUs' memory; the dot is the batch its fleet is sized at. The cost ranked is "
            "read "
            "where a curve meets your time-per-token target."
        )
        note.setWordWrap(True)
        layout.addWidget(note)
        self.canvas = None
        try:
            self.canvas = self._canvas(scorecard)
            layout.addWidget(self.canvas, 1)
        except Exception as exc:  # noqa: BLE001 (a chart must never take the window down)
            layout.addWidget(QLabel(f"The frontier could not be drawn: {exc}"))

    @staticmethod
    def _canvas(scorecard):
        # matplotlib and the frontier's grid load only when the view opens (cold start stays light).
        from matplotlib.backends.backend_qtagg import FigureCanvasQTAgg

        from clusterbid.core.charts.serving_frontier import serving_frontier_figure

        figure = serving_frontier_figure(scorecard)  # the memo draws the same figure (issue 37)
        canvas = FigureCanvasQTAgg(figure)
        canvas.setAccessibleName("Serving frontier chart")
        return canvas


def show_frontier(window) -> FrontierView:
    """Open the frontier of `window`'s current serving scorecard (kept on the window while open)."""
    view = FrontierView(window.scorecard, window)
    window.frontier_view = view
    view.show()
    return view
