"""The buyer's job as a form built from the Workload model, with derived numbers shown live."""

from __future__ import annotations

import html
import re
import typing

from pydantic import ValidationError
from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from clusterbid.core.flops import flops_text
from clusterbid.core.plan import ComputePlan
from clusterbid.core.stack_names import STACK_WORDS
from clusterbid.core.workload import Workload
from clusterbid.gui.bid_status import BidStatus, status_colour
from clusterbid.gui.error_line import ErrorLine
from clusterbid.gui.field_errors import field_bounds, route_errors
from clusterbid.operations.plan_inputs import TRAINING_INPUTS

# The compute plan's fields sit in the same form as "plan.<field>" (a nested section of the model).
FIELD_INFO = {
    **{
        name: info
        for name, info in Workload.model_fields.items()
        if name not in ("kind", "plan", "provenance")
    },
    **{f"plan.{name}": info for name, info in ComputePlan.model_fields.items()},
}
FIELDS = list(FIELD_INFO)
TEXT_FIELDS = {name for name in FIELDS if FIELD_INFO[name].annotation is str}
LABELS = {
    "name": "&Name",
    "total_params_billions": "Total parameters (billions)",
    "active_params_billions": "Active parameters (billions)",
    "training_tokens_billions": "Training tokens (billions)",
    "total_flops": "Total FLOPs (instead of tokens)",
    "job_gpus": "Planned &job size (GPUs)",
    "tensor_parallel": "Tensor parallel (TP)",
    "pipeline_parallel": "Pipeline parallel (PP)",
    "context_parallel": "Context parallel (CP)",
    "virtual_pipeline_stages": "Interleaved stages per GPU",
    "global_batch_tokens": "Global batch (tokens)",
    "sequence_length": "Sequence length (tokens)",
    "baseline_mfu": "&Baseline MFU",
    "baseline_flops_basis": "Baseline counts (model = MFU, hardware = HFU)",
    "baseline_hidden_size": "Baseline measured on hidden size",
    "software_stack": "Training software stack",
    "num_layers": "Layers (for attention FLOPs, activations)",
    "hidden_size": "Hidden size (model width)",
    "num_attention_heads": "Attention heads",
    "vocab_size": "Vocabulary (tokens)",
    "container_image": "Benchmark container, pinned (name@sha256:digest)",
    "activation_recomputation": "Activation recomputation",
    "dp_comm_overlap": "Gradient all-reduce hidden",
    "grad_bytes_per_param": "Gradient bytes per parameter",
    "distributed_optimizer": "Distributed optimizer (ZeRO-1)",
    "checkpoint_blocking_share": "Checkpoint share that blocks",
    "plan.start_date": "Plan: earliest start (YYYY-MM-DD)",
    "plan.deadline": "Plan: finish by (YYYY-MM-DD)",
    "plan.idle_use": "Plan: idle reserved time",
    "plan.idle_value_per_gpu_hour": "Plan: idle GPU-hour worth",
}
# Schedule knobs the model chooses when the workload leaves them out (the best feasible one):
# the form shows the stored default, and saving it unchanged must not turn it into a statement.
UNSTATED_KNOBS = {"virtual_pipeline_stages", "micro_batch_size"}
# Choices shown in words where the model's values are identifiers (issue 36: the stack).
CHOICE_WORDS = {"software_stack": STACK_WORDS}
# The rest of the plan in the words of Edit > Plan Inputs (issue 31), not "Plan.further runs".
LABELS.update(
    {
        f"plan.{i.name}": "Plan: " + i.label[0].lower() + i.label[1:]
        for i in TRAINING_INPUTS
        if f"plan.{i.name}" not in LABELS
    }
)


def _label(name: str) -> str:
    return LABELS.get(name, name.replace("_", " ").capitalize())


def _in_words(text: str) -> str:
    """A model description as the officer reads it: another field's identifier becomes the
    label the pane shows for it ("baseline_mfu" -> "Baseline MFU")."""
    for name in sorted(LABELS, key=len, reverse=True):
        text = re.sub(rf"(?<![\w.]){re.escape(name)}\b", LABELS[name].replace("&", ""), text)
    return text


def _value_at(workload: Workload, name: str) -> object:
    section, _, field = name.rpartition(".")
    return getattr(getattr(workload, section) if section else workload, field)


def _text(value: object) -> str:
    if value is None:
        return ""
    return f"{value:g}" if isinstance(value, float) else str(value)


class WorkloadEditor(QWidget):
    """Emits `workload_edited(Workload)` when the officer applies a valid job."""

    workload_edited = Signal(object)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("workload_editor")
        self.editors: dict[str, QWidget] = {}
        self.errors: dict[str, QLabel] = {}
        self._shown: Workload | None = None
        self._loading = False
        form = QFormLayout()
        # Each label on its own line above its value: in the dock's width a label and its value
        # side by side left the value off the pane's right edge (issue 38).
        form.setRowWrapPolicy(QFormLayout.RowWrapPolicy.WrapAllRows)
        for name in FIELDS:
            field = FIELD_INFO[name]
            editor = self._make_editor(name, field.annotation)
            tip = " ".join(part for part in (field.description or "", field_bounds(field)) if part)
            editor.setToolTip(_in_words(tip))
            error = ErrorLine(f"error_{name}")  # keeps its line: the fields below never jump
            label = QLabel(_label(name))
            label.setWordWrap(True)  # a long label wraps within the pane rather than widening it
            label.setBuddy(editor)
            form.addRow(label, editor)
            form.addRow(
                error
            )  # the whole width under its field: the editor column is narrow in the dock
            self.editors[name], self.errors[name] = editor, error
        self.general_error = QLabel()
        self.general_error.setWordWrap(True)
        self.derived = QLabel()
        self.derived.setObjectName("derived")
        self.derived.setWordWrap(True)
        self.fit_to_font()
        self.apply_button = QPushButton("&Apply to evaluation")
        self.revert_button = QPushButton("Re&vert")
        self.apply_button.clicked.connect(self.apply)
        self.revert_button.clicked.connect(lambda: self.show_workload(self._shown))
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        buttons.addWidget(self.revert_button)
        buttons.addWidget(self.apply_button)
        layout = QVBoxLayout(self)
        layout.addWidget(self.derived)
        layout.addLayout(form)
        layout.addWidget(self.general_error)
        layout.addLayout(buttons)
        layout.addStretch(1)

    def fit_to_font(self) -> None:
        """Four lines reserved so the form does not jump while the officer types (at any zoom)."""
        self.derived.setMinimumHeight(self.derived.fontMetrics().lineSpacing() * 4 + 4)

    def _make_editor(self, name: str, annotation: object) -> QWidget:
        if typing.get_origin(annotation) is typing.Literal:
            combo = QComboBox()
            words = CHOICE_WORDS.get(name, {})
            for option in typing.get_args(annotation):
                combo.addItem(words.get(option, str(option)), option)
            combo.currentIndexChanged.connect(self._revalidate)
            return combo
        if annotation is bool:
            box = QCheckBox()
            box.toggled.connect(self._revalidate)
            return box
        line = QLineEdit()
        line.textChanged.connect(self._revalidate)
        return line

    # -- reading and writing the form ----------------------------------------------------------
    def show_workload(self, workload: Workload | None) -> None:
        if workload is None:
            return
        self._shown = workload
        self._loading = True
        for name, editor in self.editors.items():
            value = _value_at(workload, name)
            if isinstance(editor, QComboBox):
                editor.setCurrentIndex(max(editor.findData(value), 0))
            elif isinstance(editor, QCheckBox):
                editor.setChecked(bool(value))
            else:
                editor.setText(_text(value))
        self._loading = False
        self._revalidate()

    def form_values(self) -> dict[str, object]:
        values: dict[str, object] = {}
        for name, editor in self.editors.items():
            if isinstance(editor, QComboBox):
                values[name] = editor.currentData()
            elif isinstance(editor, QCheckBox):
                values[name] = editor.isChecked()
            elif editor.text().strip():
                text = editor.text().strip()
                # Thousands separators are welcome in numbers ("4,194,304"), kept in text fields.
                values[name] = text if name in TEXT_FIELDS else text.replace(",", "")
        plan = {
            key.removeprefix("plan."): values.pop(key)
            for key in list(values)
            if key.startswith("plan.")
        }
        values["plan"] = plan
        if self._shown is not None:  # issue 36: an unstated schedule knob left as shown stays
            for name in UNSTATED_KNOBS - self._shown.model_fields_set:  # unstated (best assumed)
                if str(values.get(name, "")) == _text(getattr(self._shown, name)):
                    values.pop(name, None)
        if (
            self._shown is not None
        ):  # issue 14: an input left as shown keeps its source (default stays default)
            values["provenance"] = {
                name: source.model_dump()
                for name, source in self._shown.provenance.items()
                if str(values.get(name, "")).replace(",", "")
                == _text(getattr(self._shown, name)).replace(",", "")
            }
        return values

    def validated(self) -> Workload | None:
        try:
            return Workload.model_validate(self.form_values())
        except ValidationError:
            return None

    def apply(self) -> None:
        workload = self.validated()
        if workload is not None and workload != self._shown:
            self.workload_edited.emit(workload)

    # -- live feedback -------------------------------------------------------------------------
    def _revalidate(self, *_args: object) -> None:
        if self._loading:
            return
        colour = status_colour(BidStatus.FAILED_GATE, self.palette()).name()
        try:
            workload = Workload.model_validate(self.form_values())
        except ValidationError as exc:
            by_field, general = route_errors(exc, FIELDS)
            for name, label in self.errors.items():
                self._set_error(label, by_field.get(name), colour)
            self._set_error(self.general_error, general, colour)
            self.derived.setText("<i>Derived numbers appear when every field is valid.</i>")
            self.apply_button.setEnabled(False)
            return
        for label in [*self.errors.values(), self.general_error]:
            self._set_error(label, None, colour)
        self.derived.setText(
            f"<b>Total compute</b> {flops_text(workload.total_training_flops)}<br>"
            f"<b>DP degree</b> {workload.data_parallel:,}<br>"
            f"<b>Model state per GPU</b> {workload.model_state_gb_per_gpu():,.1f} GB<br>"
            f"<b>Micro-batches per step</b> {workload.micro_batches_per_step:,}"
        )
        self.apply_button.setEnabled(workload != self._shown)

    @staticmethod
    def _set_error(label: QLabel, messages: list[str] | None, colour: str) -> None:
        if not messages:
            label.clear()
            label.hide()
            return
        text = "<br>".join(html.escape(_in_words(m)) for m in messages)  # labels, not field ids
        label.setText(f"<span style='color:{colour}'>{text}</span>")
        label.show()
