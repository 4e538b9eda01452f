"""One slider per scoring criterion; a drag is one undo step, and each shows its tipping point."""

from __future__ import annotations

import itertools

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QFormLayout, QHBoxLayout, QLabel, QSlider, QWidget

from clusterbid.core.evaluation import CriteriaWeights

LABELS = {
    "cost_to_finish": "&Cost to finish",
    "sla": "&SLA",
    "datacenter_tier": "Data-centre &tier",
    "certifications": "Certificati&ons",
    "support": "Su&pport",
    "contract_terms": "Contract te&rms",
    "evidence": "E&vidence",
}


class WeightsPanel(QWidget):
    """Emits `weights_edited(weights, merge_key)`; one merge key per drag or key press."""

    weights_edited = Signal(object, object)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("weights")
        self._tokens = itertools.count(1)
        self._drag_token: int | None = None
        self.sliders: dict[str, QSlider] = {}
        self._values: dict[str, QLabel] = {}
        self._tipping: dict[str, QLabel] = {}
        form = QFormLayout(self)
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.ExpandingFieldsGrow)
        for name, field in CriteriaWeights.model_fields.items():
            slider = QSlider(Qt.Orientation.Horizontal)
            slider.setObjectName(f"weight_{name}")
            slider.setRange(int(field.metadata[0].ge), int(field.metadata[1].le))
            slider.setPageStep(5)
            slider.setAccessibleName(f"Weight of {name.replace('_', ' ')}")
            slider.valueChanged.connect(lambda value, n=name: self._on_value(n, value))
            slider.sliderPressed.connect(self._on_pressed)
            slider.sliderReleased.connect(self._on_released)
            value, tipping = QLabel(), QLabel("tipping point —")
            value.setMinimumWidth(value.fontMetrics().horizontalAdvance("100 (100%)"))
            tipping.setToolTip("How far this weight can move before another bid ranks first")
            row = QHBoxLayout()
            row.addWidget(slider, 1)
            row.addWidget(value)
            row.addWidget(tipping)
            label = QLabel(LABELS.get(name, name))
            label.setBuddy(slider)
            form.addRow(label, row)
            self.sliders[name], self._values[name], self._tipping[name] = slider, value, tipping
        self._updating = False

    def show_weights(self, weights: CriteriaWeights) -> None:
        self._updating = True
        total = sum(weights.model_dump().values()) or 1
        for name, value in weights.model_dump().items():
            slider = self.sliders[name]
            if not slider.isSliderDown():
                slider.setValue(round(value))
            self._values[name].setText(f"{value:g} ({value / total:.0%})")
        self._updating = False

    def show_sensitivity(self, sensitivity: object | None) -> None:
        points = getattr(sensitivity, "tipping_points", None) or {}
        for name, label in self._tipping.items():
            point = points.get(name)
            if point is None:
                label.setText("tipping point —")
                continue
            bounds = " – ".join("—" if v is None else f"{v:g}" for v in (point.lower, point.upper))
            label.setText(f"stays first within {bounds}; then {point.winner_then}")

    def current_weights(self) -> dict[str, float]:
        return {name: float(slider.value()) for name, slider in self.sliders.items()}

    def _on_pressed(self) -> None:
        self._drag_token = next(self._tokens)

    def _on_released(self) -> None:
        self._drag_token = None

    def _on_value(self, name: str, _value: int) -> None:
        if self._updating:
            return
        token = self._drag_token if self._drag_token is not None else next(self._tokens)
        self.weights_edited.emit(self.current_weights(), ("weights", token))
