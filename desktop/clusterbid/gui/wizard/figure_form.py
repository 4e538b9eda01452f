"""Type a figure with its provenance (kind, value, scale, who measured it, when), validated as Evidence."""

from __future__ import annotations

from pydantic import ValidationError
from PySide6.QtCore import Signal
from PySide6.QtWidgets import QFormLayout, QGroupBox, QLabel, QPushButton, QVBoxLayout, QWidget

from clusterbid.core.evidence.model import UNITS, Evidence, EvidenceGrade, EvidenceKind
from clusterbid.gui.wizard.field_rules import BLANK, connect_changes, field_cell, make_binding
from clusterbid.gui.wizard.officer_words import GRADE_WORDS, first_mentioned, officer_message

KIND_WORDS = [
    ("All-reduce bus bandwidth (nccl-tests busbw)", EvidenceKind.ALLREDUCE_BUSBW),
    ("Training MFU (fraction of dense peak)", EvidenceKind.TRAINING_MFU),
    ("Training step time", EvidenceKind.TRAINING_STEP_TIME),
    ("Serving decode throughput (one replica, tokens/s)", EvidenceKind.SERVING_DECODE_THROUGHPUT),
    ("Other", EvidenceKind.OTHER),
]
MEASURED_BY_WORDS = [
    ("The provider", "provider"),
    ("The buyer", "buyer"),
    ("A third party", "third_party"),
]
FIELDS = [
    ("kind", "&Kind", KIND_WORDS),
    ("value", "&Value", None),
    ("unit", "U&nit", None),
    ("scale_gpus", "Sc&ale (GPUs)", None),
    ("batch_size", "Concurrent se&quences (serving)", None),
    ("measured_by", "Measured b&y", MEASURED_BY_WORDS),
    ("grade", "&Grade", [(words.capitalize(), grade) for grade, words in GRADE_WORDS.items()]),
    ("measured_on", "Measured &on", None),
    ("description", "&Description", None),
]


class FigureForm(QGroupBox):
    """Emits `figure_added` with a valid Evidence when the officer presses Add figure."""

    figure_added = Signal(object)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__("Or type a figure with its provenance", parent)
        form = QFormLayout()
        self.bindings = {}
        for name, label, choices in FIELDS:
            binding = make_binding(Evidence, (name,), label, choices=choices, decimals=4)
            form.addRow(binding.label, field_cell(binding))
            self.bindings[name] = binding
        self.titles = {name: b.title for name, b in self.bindings.items()}
        self.form_error = QLabel()
        self.form_error.setObjectName("figure_error")
        self.form_error.setWordWrap(True)
        self.form_error.setStyleSheet("color: #b3261e;")
        self.add_button = QPushButton("Add fi&gure")
        self.add_button.setObjectName("add_figure")
        self.add_button.clicked.connect(self._add)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.form_error)
        layout.addWidget(self.add_button)
        self.evidence: Evidence | None = None
        self.bindings["measured_by"].write("provider")
        self.bindings["grade"].write(EvidenceGrade.PROVIDER_CLAIM)
        self.bindings["kind"].widget.currentIndexChanged.connect(self._unit_for_kind)
        for binding in self.bindings.values():
            connect_changes(binding, self._check)
        self._check()

    def _unit_for_kind(self) -> None:
        """Known kinds have one unit (the model's UNITS); only 'other' lets the officer type it."""
        kind = self.bindings["kind"].read()
        unit = self.bindings["unit"]
        known = UNITS.get(kind) if kind is not BLANK else None
        unit.widget.setReadOnly(known is not None)
        unit.write(known or "")
        unit.touched = False  # filled by the form, not by the officer

    def _raw(self) -> dict:
        return {
            name: value for name, b in self.bindings.items() if (value := b.read()) is not BLANK
        }

    def _check(self) -> None:
        problems: dict[str, list[str]] = {}
        general: list[str] = []
        self.evidence = None
        try:
            self.evidence = Evidence.model_validate(self._raw())
        except ValidationError as exc:
            for error in exc.errors():
                loc = tuple(str(part) for part in error["loc"])
                name = loc[0] if loc else first_mentioned(error["msg"], list(self.bindings))
                if error["type"] == "missing" and not self.bindings[name].touched:
                    continue
                message = officer_message(error, (name,) if name else (), self.titles)
                (problems.setdefault(name, []) if name in self.bindings else general).append(
                    message
                )
        for name, binding in self.bindings.items():
            binding.error.setText("\n".join(problems.get(name, [])))
            binding.error.setVisible(name in problems)
        self.form_error.setText("\n".join(general))
        self.form_error.setVisible(bool(general))
        self.add_button.setEnabled(self.evidence is not None)

    def _add(self) -> None:
        if self.evidence is None:
            return
        self.figure_added.emit(self.evidence)
        for name in ("value", "scale_gpus", "batch_size", "description", "measured_on"):
            self.bindings[name].write(None)
            self.bindings[name].touched = False
        self._check()
