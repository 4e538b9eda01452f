"""One slider per scoring criterion; a drag is one undo step, and each shows its tipping point."""

from __future__ import annotations

import itertools
import time
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QGridLayout, QLabel, QSlider, QWidget

from clusterbid.core.criteria import CRITERIA
from clusterbid.core.evaluation import CriteriaWeights

if TYPE_CHECKING:
    from clusterbid.core.uncertainty.tipping import TippingPoint

LABELS = {c.name: c.label for c in CRITERIA}  # core/criteria.py

PENDING = "tipping point: computing…"
# Arrow-key steps on one slider this close together are one try-and-adjust: one undo step.
KEY_RUN_SECONDS = 2.0


def describe_tipping_point(point: TippingPoint, names: dict[str, str] | None = None) -> str:
    """Where moving this weight alone changes the first-ranked bid, in the panel's few words; the
    bid by its provider's name (`names`: bid id -> provider), not its id."""
    shown = names or {}

    def name(bid_id: str | None) -> str | None:
        return bid_id if bid_id is None else shown.get(bid_id, bid_id)

    changes = []
    if point.lower is not None:
        changes.append(f"below {point.lower:.1f}: {name(point.winner_below)} first")
    if point.upper is not None:
        changes.append(f"above {point.upper:.1f}: {name(point.winner_above)} first")
    return "; ".join(changes) or "same winner from 0 to 100"


class WeightsPanel(QWidget):
    """Emits `weights_edited(weights, merge_key)`; one merge key per drag or key press."""

    weights_edited = Signal(object, object)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("weights")
        self._tokens = itertools.count(1)
        self._drag_token: int | None = None
        self._key_run: tuple[str, int, float] | None = None  # slider, token, time of its last step
        self.sliders: dict[str, QSlider] = {}
        self.value_labels: dict[str, QLabel] = {}
        self.tipping_labels: dict[str, QLabel] = {}
        grid = QGridLayout(self)  # a grid, so sliders line up whatever each tipping text says
        grid.setColumnStretch(1, 1)
        for row, (name, field) in enumerate(CriteriaWeights.model_fields.items()):
            slider = QSlider(Qt.Orientation.Horizontal)
            slider.setObjectName(f"weight_{name}")
            slider.setRange(int(field.metadata[0].ge), int(field.metadata[1].le))
            slider.setPageStep(5)
            slider.setAccessibleName(f"Weight of {name.replace('_', ' ')}")
            slider.valueChanged.connect(lambda value, n=name: self._on_value(n, value))
            slider.sliderPressed.connect(self._on_pressed)
            slider.sliderReleased.connect(self._on_released)
            value, tipping = QLabel(), QLabel(PENDING)
            tipping.setToolTip(
                "How far this weight can move before another bid ranks first (raw weight, 0-100)"
            )
            label = QLabel(LABELS.get(name, name))
            label.setBuddy(slider)
            for column, widget in enumerate((label, slider, value, tipping)):
                grid.addWidget(widget, row, column)
            self.sliders[name], self.value_labels[name], self.tipping_labels[name] = (
                slider,
                value,
                tipping,
            )
        self._updating = False
        self.fit_to_font()

    def fit_to_font(self) -> None:
        """Value labels wide enough for the widest value at the current font (presentation zoom)."""
        for value in self.value_labels.values():
            value.setMinimumWidth(value.fontMetrics().horizontalAdvance("100 (100%)"))

    def show_weights(self, weights: CriteriaWeights) -> None:
        self._updating = True
        total = sum(weights.model_dump().values()) or 1
        for name, value in weights.model_dump().items():
            slider = self.sliders[name]
            if not slider.isSliderDown():
                slider.setValue(round(value))
            self.value_labels[name].setText(f"{value:g} ({value / total:.0%})")
        self._updating = False

    def show_sensitivity(
        self, sensitivity: object | None, names: dict[str, str] | None = None
    ) -> None:
        points = getattr(sensitivity, "tipping_points", None) or {}
        for name, label in self.tipping_labels.items():
            point = points.get(name)
            if (
                point is None and sensitivity is not None
            ):  # issue 39: the rating, when nobody is rated
                label.setText("no third-party rating recorded: nothing to weigh yet")
                continue
            label.setText(PENDING if point is None else describe_tipping_point(point, names))

    def current_weights(self) -> dict[str, float]:
        return {name: float(slider.value()) for name, slider in self.sliders.items()}

    def _on_pressed(self) -> None:
        self._drag_token = next(self._tokens)
        self._key_run = None

    def _on_released(self) -> None:
        self._drag_token = None

    def _on_value(self, name: str, _value: int) -> None:
        if self._updating:
            return
        token = self._drag_token if self._drag_token is not None else self._key_token(name)
        self.weights_edited.emit(self.current_weights(), ("weights", token))

    def _key_token(self, name: str) -> int:
        """The same token for a run of steps on one slider, a new one after a pause or elsewhere."""
        now = time.monotonic()
        run = self._key_run
        token = (
            run[1]
            if run and run[0] == name and now - run[2] <= KEY_RUN_SECONDS
            else next(self._tokens)
        )
        self._key_run = (name, token, now)
        return token
