"""One form field bound to one model field: its widget's range and tooltip come from the model."""

from __future__ import annotations

import datetime as dt
import types
import typing
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from pydantic import BaseModel
from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QValidator
from PySide6.QtWidgets import (
    QAbstractSpinBox,
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QLabel,
    QLineEdit,
    QSizePolicy,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from clusterbid.gui.error_line import ErrorLine

BLANK_TEXT = "—"  # shown by a spin box whose required value is not entered yet
DATE_HINT = "YYYY-MM-DD"


class _Blank:
    """A required field the officer has not filled: left out of the dict so pydantic says 'missing'."""


BLANK = _Blank()


@dataclass(frozen=True)
class Bounds:
    """A field's numeric and length limits, read from its pydantic constraints."""

    ge: float | None = None
    gt: float | None = None
    le: float | None = None
    max_length: int | None = None
    decimal_places: int | None = None


def field_bounds(model: type[BaseModel], name: str) -> Bounds:
    info = model.model_fields[name]
    found: dict[str, Any] = {}
    for item in info.metadata:
        for key in ("ge", "gt", "le", "max_length", "decimal_places"):
            value = getattr(item, key, None)
            if value is not None:
                found[key] = value
    return Bounds(**found)


def base_type(model: type[BaseModel], name: str) -> Any:
    """The field's type without `| None`."""
    annotation = model.model_fields[name].annotation
    args = [a for a in typing.get_args(annotation) if a is not type(None)]
    if typing.get_origin(annotation) in (typing.Union, types.UnionType) and len(args) == 1:
        return args[0]
    return annotation


@dataclass
class FieldBinding:
    """The widget, label and error label of one model field, and how to read and write it."""

    path: tuple[str, ...]
    title: str  # the label without mnemonic, used in messages
    label: QLabel
    widget: QWidget
    error: ErrorLine
    read: typing.Callable[[], Any]
    write: typing.Callable[[Any], None]
    touched: bool = False
    required: bool = False
    extra: dict = field(default_factory=dict)


def connect_changes(binding: FieldBinding, slot: typing.Callable[[], None]) -> None:
    """Call `slot` whenever the officer edits the field, and mark it touched."""

    def on_change(*_args) -> None:
        binding.touched = True
        binding.extra.pop("refused", None)  # an accepted change: the refusal is history
        slot()

    widget = binding.widget
    if isinstance(widget, QComboBox):
        widget.currentIndexChanged.connect(on_change)
    elif isinstance(widget, QCheckBox):
        widget.toggled.connect(on_change)
    elif isinstance(widget, (QSpinBox, QDoubleSpinBox)):
        widget.valueChanged.connect(on_change)
    else:
        widget.textChanged.connect(on_change)


def make_binding(
    model: type[BaseModel],
    path: tuple[str, ...],
    label_text: str,
    *,
    choices: list[tuple[str, Any]] | None = None,
    decimals: int = 2,
    not_stated: bool = False,
) -> FieldBinding:
    """Build the widget for `model.<path[-1]>`: spin box, check box, combo box or line edit.

    `not_stated`: a figure a provider may omit starts blank (read as None, "not stated") rather
    than pre-filled with the model's default, which would look like the provider's figure."""
    name = path[-1]
    info = model.model_fields[name]
    bounds = field_bounds(model, name)
    kind = base_type(model, name)
    required = (
        info.is_required() and not not_stated
    )  # a required-but-nullable figure may be not stated
    if choices is None and typing.get_origin(kind) is typing.Literal:
        choices = [(str(v), v) for v in typing.get_args(kind)]
    if choices is not None:
        widget, read, write = _combo(
            choices, required, may_be_empty=not required and info.default is None
        )
    elif kind is bool:
        widget, read, write = _check()
    elif kind in (int, float, Decimal):
        # An optional number whose default is empty ("the bid does not say") starts blank too.
        widget, read, write = _spin(
            kind,
            bounds,
            required,
            decimals,
            may_be_empty=not required and (info.default is None or not_stated),
        )
    elif kind is dt.date:
        widget, read, write = _date(required)
    else:
        widget, read, write = _line(bounds, required)
    tooltip = info.description or ""
    widget.setToolTip(tooltip)
    label = QLabel(label_text + ("*" if required else ""))
    label.setBuddy(widget)
    label.setToolTip(tooltip)
    error = ErrorLine(f"error_{'_'.join(path)}")  # keeps its line: fields never jump
    binding = FieldBinding(
        path, label_text.replace("&", ""), label, widget, error, read, write, required=required
    )
    binding.widget.setObjectName("_".join(path))
    if hasattr(widget, "refused"):
        widget.refused.connect(lambda why: _show_refusal(binding, why))
    if not required and info.default is not None and not not_stated:
        write(info.default)
    return binding


def _show_refusal(binding: FieldBinding, why: str) -> None:
    """Beside the field until its next accepted change (the wizard's refresh shows it with the rest)."""
    binding.extra["refused"] = f"{binding.title}: {why}"
    show_messages(binding, binding.extra.get("problems", []))


def show_messages(binding: FieldBinding, messages: list[str]) -> None:
    """The field's problems beneath it, after the reason a keystroke was refused (if one was)."""
    binding.extra["problems"] = messages
    shown = [m for m in (binding.extra.get("refused"), *messages) if m]
    binding.error.say("\n".join(shown))


def _combo(choices, required, may_be_empty: bool = False):
    widget = QComboBox()
    if required:
        widget.addItem("— choose —", BLANK)
    elif may_be_empty:
        widget.addItem("— not stated —", None)
    for text, value in choices:
        widget.addItem(text, value)

    def read():
        return widget.currentData()

    def write(value):
        index = widget.findData(value)
        widget.setCurrentIndex(max(index, 0))

    return widget, read, write


def _check():
    widget = QCheckBox()
    return widget, widget.isChecked, lambda value: widget.setChecked(bool(value))


def _refusal(text: str, low: float, limit: str) -> str | None:
    """Why typed `text` cannot be taken, when it is a negative number and the model allows none."""
    cleaned = text.strip().replace(",", "")
    if not cleaned.startswith("-") or low < 0:
        return None
    try:
        number = float(cleaned) if cleaned != "-" else None
    except ValueError:
        return None
    typed = f"{number:g} is" if number is not None else "A negative value is"
    return f"{typed} not accepted: this figure cannot be negative (it must be {limit})."


def _explaining(spin_class):
    """A spin box that says why it refused a keystroke, instead of silently keeping the old value."""

    class Explaining(spin_class):
        refused = Signal(str)

        def __init__(self, low: float, limit: str) -> None:
            super().__init__()
            self._low, self._limit = low, limit

        def keyPressEvent(self, event) -> None:  # noqa: N802 (Qt API)
            # A blank field shows "—"; a digit typed after clicking into it (the cursor beside the
            # dash, nothing selected) made "—5", which the validator dropped: it now replaces the
            # dash, as typing over a selection does. Not right after a refused key: a refused "-"
            # must not let the next digit turn "-5" into 5.
            refused_before, self._refused_last = getattr(self, "_refused_last", False), False
            typed, edit = event.text(), self.lineEdit()
            if (
                not refused_before
                and typed
                and typed[0] in "0123456789.,-"
                and self.specialValueText()
                and edit.text() == self.specialValueText()
                and not edit.hasSelectedText()
            ):
                edit.selectAll()
            super().keyPressEvent(event)

        def validate(self, text: str, pos: int):  # noqa: D102 (Qt API)
            result = super().validate(text, pos)
            state = result[0] if isinstance(result, tuple) else result
            if state == QValidator.State.Invalid:
                why = _refusal(text, self._low, self._limit)
                self._refused_last = True
                if why:
                    self.refused.emit(why)
            return result

    return Explaining


_ExplainingSpin, _ExplainingDoubleSpin = _explaining(QSpinBox), _explaining(QDoubleSpinBox)


def _spin(kind, bounds: Bounds, required: bool, decimals: int, may_be_empty: bool = False):
    is_int = kind is int
    places = (
        0 if is_int else (bounds.decimal_places if bounds.decimal_places is not None else decimals)
    )
    step = 1 if is_int else 10.0**-places
    low = bounds.ge if bounds.ge is not None else (bounds.gt + step if bounds.gt is not None else 0)
    high = bounds.le if bounds.le is not None else (2**31 - 1 if is_int else 1e12)
    limit = f"more than {bounds.gt:g}" if bounds.gt is not None else f"at least {low:g}"
    widget = _ExplainingSpin(low, limit) if is_int else _ExplainingDoubleSpin(low, limit)
    if not is_int:
        widget.setDecimals(places)
    # A required value starts blank: one step below the model's minimum stands for "not entered".
    blankable = required or may_be_empty
    floor = low - step if blankable else low
    widget.setRange(int(floor) if is_int else floor, int(high) if is_int else high)
    if blankable:
        widget.setSpecialValueText(BLANK_TEXT)
        widget.setValue(widget.minimum())
    widget.setAccelerated(True)
    widget.setAlignment(Qt.AlignmentFlag.AlignRight)
    widget.setMinimumWidth(130)

    def read():
        value = widget.value()
        if blankable and value == widget.minimum():
            return BLANK if required else None
        if kind is Decimal:
            return str(round(Decimal(value), places).normalize())
        return value

    def write(value):
        widget.setValue(
            widget.minimum()
            if value is None or value is BLANK
            else float(value)
            if not is_int
            else int(value)
        )

    return widget, read, write


def _date(required: bool):
    widget = QLineEdit()
    widget.setPlaceholderText(DATE_HINT)
    widget.setMaxLength(10)

    def read():
        text = widget.text().strip()
        return text if text else (BLANK if required else None)

    return widget, read, lambda value: widget.setText("" if value is None else str(value))


def _line(bounds: Bounds, required: bool):
    widget = QLineEdit()
    if bounds.max_length:
        widget.setMaxLength(bounds.max_length)

    def read():
        text = widget.text().strip()
        return BLANK if required and not text else text

    return widget, read, lambda value: widget.setText("" if value is None else str(value))


def field_cell(binding) -> QWidget:
    """The binding's editor with its error label right beneath it, for a form row."""
    cell = QWidget()
    # The cell takes the form's whole field column, so its error text wraps at that width; a
    # cell as narrow as a spin box wraps long messages into more lines than the form allots.
    cell.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
    stack = QVBoxLayout(cell)
    stack.setContentsMargins(0, 0, 0, 0)
    stack.setSpacing(1)
    narrow = isinstance(binding.widget, (QAbstractSpinBox, QCheckBox))
    stack.addWidget(
        binding.widget, 0, Qt.AlignmentFlag.AlignLeft if narrow else Qt.AlignmentFlag(0)
    )
    stack.addWidget(binding.error)
    return cell
