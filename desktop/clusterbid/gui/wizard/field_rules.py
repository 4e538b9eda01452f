"""One form field bound to one model field: its widget's range and tooltip come from the model.
The editors themselves (and BLANK, a required figure not yet entered) are field_widgets.py's."""

from __future__ import annotations

import datetime as dt
import types
import typing
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from pydantic import BaseModel
from pydantic.fields import FieldInfo
from PySide6.QtCore import Qt
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
from clusterbid.gui.wizard.field_widgets import (
    BLANK,
    BLANK_TEXT,
    DATE_HINT,
    Bounds,
    Editor,
    check_editor,
    combo_editor,
    date_editor,
    line_editor,
    spin_editor,
)

__all__ = [
    "BLANK",
    "BLANK_TEXT",
    "DATE_HINT",
    "Bounds",
    "FieldBinding",
    "base_type",
    "connect_changes",
    "field_bounds",
    "field_cell",
    "make_binding",
    "show_messages",
]


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
    extra: dict[str, Any] = field(default_factory=dict)


def connect_changes(binding: FieldBinding, slot: typing.Callable[[], None]) -> None:
    """Call `slot` whenever the officer edits the field, and mark it touched."""

    def on_change(*_args: object) -> None:
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
        typing.cast(QLineEdit, widget).textChanged.connect(on_change)  # the other editors


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
    widget, read, write = _editor(kind, info, bounds, required, choices, decimals, not_stated)
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


def _editor(
    kind: Any,
    info: FieldInfo,
    bounds: Bounds,
    required: bool,
    choices: list[tuple[str, Any]] | None,
    decimals: int,
    not_stated: bool,
) -> Editor:
    """The editor the field's type asks for: a combo box for choices (a Literal's values), a
    check box for a flag, a spin box for a number, a date line, or a text line."""
    if choices is None and typing.get_origin(kind) is typing.Literal:
        choices = [(str(v), v) for v in typing.get_args(kind)]
    if choices is not None:
        return combo_editor(choices, required, may_be_empty=not required and info.default is None)
    elif kind is bool:
        return check_editor()
    elif kind in (int, float, Decimal):
        # An optional number whose default is empty ("the bid does not say") starts blank too.
        return spin_editor(
            kind,
            bounds,
            required,
            decimals,
            may_be_empty=not required and (info.default is None or not_stated),
        )
    elif kind is dt.date:
        return date_editor(required)
    else:
        return line_editor(bounds, required)


def _show_refusal(binding: FieldBinding, why: str) -> None:
    """Beside the field until its next accepted change (the wizard's refresh shows it with the rest)."""
    binding.extra["refused"] = f"{binding.title}: {why}"
    show_messages(binding, binding.extra.get("problems", []))


def show_messages(binding: FieldBinding, messages: list[str]) -> None:
    """The field's problems beneath it, after the reason a keystroke was refused (if one was)."""
    binding.extra["problems"] = messages
    shown = [m for m in (binding.extra.get("refused"), *messages) if m]
    binding.error.say("\n".join(shown))


def field_cell(binding: FieldBinding) -> QWidget:
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
