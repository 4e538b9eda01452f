"""The charts beside the comparison: figures from core.charts in a canvas built on first show."""

from __future__ import annotations

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QComboBox, QLabel, QStackedLayout, QVBoxLayout, QWidget

# The first is what the tab opens on: the net plan cost the ranking is decided on, in rank order
# (the sticker price alone can make a low-ranked bid look cheapest).
CHARTS = (
    ("cost_to_finish_bands", "Net plan cost (P10–P90)"),
    ("sticker_vs_effective_price", "&Sticker vs effective price"),
    ("scaling_curves", "Scaling curves"),
    ("busbw_curve", "nccl-tests busbw"),
    ("sensitivity_tornado", "Sensitivity tornado"),
)


class ChartsPanel(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("charts")
        self.chooser = QComboBox()
        self.chooser.setAccessibleName("Chart")
        for name, label in CHARTS:
            self.chooser.addItem(label.replace("&", ""), name)
        self.chooser.currentIndexChanged.connect(lambda _i: self._redraw())
        self.placeholder = QLabel()
        self.placeholder.setWordWrap(True)
        self._stack = QStackedLayout()
        self._stack.addWidget(self.placeholder)
        self._canvas = None
        layout = QVBoxLayout(self)
        layout.addWidget(self.chooser)
        layout.addLayout(self._stack, 1)
        self._inputs: dict[str, object] = {}
        self._dirty = True
        self.font_scale = 1.0
        self._resize_timer = QTimer(self)
        self._resize_timer.setSingleShot(True)
        self._resize_timer.setInterval(200)
        self._resize_timer.timeout.connect(self._redraw)

    def set_inputs(self, **inputs: object) -> None:
        """scorecard=, uncertainty=, sensitivity=, nccl_result=; redrawn now if visible, else on show."""
        self._inputs.update(inputs)
        self._dirty = True
        if self.isVisible():
            self._redraw()

    def showEvent(self, event) -> None:  # noqa: N802 (Qt API)
        super().showEvent(event)
        if self._dirty:
            self._redraw()

    def current_chart(self) -> str:
        return self.chooser.currentData()

    def _figure(self, charts, name: str):
        i = self._inputs
        style = self.chart_style(charts)
        if i.get("scorecard") is None:
            return None, "No evaluation is open."
        if name == "busbw_curve":
            if i.get("nccl_result") is None:
                return None, "Drop an nccl-tests log on the window to see its bus-bandwidth curve."
            return charts.busbw_curve(i["nccl_result"], style=style), ""
        if name == "sensitivity_tornado":
            if i.get("sensitivity") is None:
                return (
                    None,
                    "The sensitivity tornado appears once the uncertainty analysis is available.",
                )
            from clusterbid.core.memo.bid_words import bid_names  # the memo's words for a bid

            names = bid_names(i["scorecard"].scores)
            return charts.sensitivity_tornado(
                i["sensitivity"], i["scorecard"], style=style, names=names
            ), ""
        if name == "cost_to_finish_bands":
            return charts.cost_to_finish_bands(
                i["scorecard"], uncertainty=i.get("uncertainty"), style=style
            ), ""
        return getattr(charts, name)(i["scorecard"], style=style), ""

    def _redraw(self) -> None:
        self._dirty = False
        from clusterbid.core import (
            charts,  # matplotlib: imported on first show, cold start must not pay for it
        )

        try:
            figure, why = self._figure(charts, self.current_chart())
        except Exception as exc:  # noqa: BLE001 (a chart must never take the window down)
            figure, why = None, f"This chart could not be drawn: {exc}"
        if figure is None:
            self._show_placeholder(why)
            return
        from matplotlib.backends.backend_qtagg import FigureCanvasQTAgg

        canvas = FigureCanvasQTAgg(figure)
        canvas.setAccessibleName(self.chooser.currentText())
        if self._canvas is not None:
            self._stack.removeWidget(self._canvas)
            self._canvas.deleteLater()
        self._canvas = canvas
        self._stack.addWidget(canvas)
        self._stack.setCurrentWidget(canvas)
        canvas.draw_idle()

    @property
    def inputs(self) -> dict[str, object]:
        """What the charts are drawn from (a copy): scorecard, uncertainty, sensitivity, nccl_result."""
        return dict(self._inputs)

    def chart_style(self, charts):
        """The figure laid out at the pane's real size, so titles wrap and legends fit there
        instead of being drawn for a wider page and shrunk."""
        from clusterbid.gui.bid_status import is_dark

        dpi = max(self.logicalDpiX(), 1)
        width = min(max(self.width() / dpi, 3.0), 40.0)
        height = min(max((self.height() - self.chooser.height()) / dpi, 2.5), 40.0)
        return charts.ChartStyle(
            dark=is_dark(self.palette()),
            font_scale=self.font_scale,
            width_in=width,
            height_in=height,
        )

    def set_font_scale(self, factor: float) -> None:
        """The presentation zoom: chart text grows with the rest of the window."""
        self.font_scale = factor
        self._dirty = True
        if self.isVisible():
            self._redraw()

    def resizeEvent(self, event) -> None:  # noqa: N802 (Qt API)
        super().resizeEvent(event)
        if self.isVisible() and self._canvas is not None:
            self._resize_timer.start()  # redraw once the drag pauses, not on every pixel

    def _show_placeholder(self, text: str) -> None:
        self.placeholder.setText(text)
        self._stack.setCurrentWidget(self.placeholder)
