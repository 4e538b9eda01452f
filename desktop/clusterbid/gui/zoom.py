"""Presentation zoom: scale the application font so a projector audience can read the table."""

from __future__ import annotations

from PySide6.QtWidgets import QApplication

ZOOM_STEPS = (0.8, 0.9, 1.0, 1.15, 1.3, 1.5, 1.75, 2.0, 2.5)


class PresentationZoom:
    def __init__(self, factor: float = 1.0) -> None:
        app = QApplication.instance()
        self._base = app.font().pointSizeF() if app.font().pointSizeF() > 0 else 10.0
        self.factor = 1.0
        self.set(factor)

    def set(self, factor: float) -> float:
        self.factor = min(max(factor, ZOOM_STEPS[0]), ZOOM_STEPS[-1])
        app = QApplication.instance()
        font = app.font()
        font.setPointSizeF(self._base * self.factor)
        app.setFont(font)
        return self.factor

    def step(self, direction: int) -> float:
        return self.set(self.next_step(direction))

    def next_step(self, direction: int) -> float:
        """The zoom step after (direction > 0) or before the current factor."""
        if direction > 0:
            bigger = [s for s in ZOOM_STEPS if s > self.factor + 1e-6]
            return bigger[0] if bigger else ZOOM_STEPS[-1]
        smaller = [s for s in ZOOM_STEPS if s < self.factor - 1e-6]
        return smaller[-1] if smaller else ZOOM_STEPS[0]
