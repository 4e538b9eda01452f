"""The editors a form field is made of (combo box, check box, spin box, date or text line), each
with how to read and write its value: blank stays blank (BLANK for a required figure, None for
one the bid may leave unstated), and a spin box says why it refused a keystroke."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QKeyEvent, QValidator
from PySide6.QtWidgets import QCheckBox, QComboBox, QDoubleSpinBox, QLineEdit, QSpinBox, QWidget

# An editor, with how to read its value and how to show one.
Editor = tuple[QWidget, Callable[[], Any], Callable[[Any], None]]


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


def combo_editor(
    choices: list[tuple[str, Any]], required: bool, may_be_empty: bool = False
) -> Editor:
    widget = QComboBox()
    if required:
        widget.addItem("— choose —", BLANK)
    elif may_be_empty:
        widget.addItem("— not stated —", None)
    for text, value in choices:
        widget.addItem(text, value)

    def read() -> Any:
        return widget.currentData()

    def write(value: Any) -> None:
        index = widget.findData(value)
        widget.setCurrentIndex(max(index, 0))

    return widget, read, write


def check_editor() -> Editor:
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


def _explaining(spin_class: type[QSpinBox] | type[QDoubleSpinBox]) -> Any:
    """A spin box that says why it refused a keystroke, instead of silently keeping the old value."""

    class Explaining(spin_class):  # type: ignore[valid-type,misc]
        refused = Signal(str)

        def __init__(self, low: float, limit: str) -> None:
            super().__init__()
            self._low, self._limit = low, limit

        def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 (Qt API)
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

        def validate(self, text: str, pos: int) -> Any:  # noqa: D102 (Qt API)
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


def spin_editor(
    kind: type, bounds: Bounds, required: bool, decimals: int, may_be_empty: bool = False
) -> Editor:
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

    def read() -> Any:
        value = widget.value()
        if blankable and value == widget.minimum():
            return BLANK if required else None
        if kind is Decimal:
            return str(round(Decimal(value), places).normalize())
        return value

    def write(value: Any) -> None:
        widget.setValue(
            widget.minimum()
            if value is None or value is BLANK
            else float(value)
            if not is_int
            else int(value)
        )

    return widget, read, write


def date_editor(required: bool) -> Editor:
    widget = QLineEdit()
    widget.setPlaceholderText(DATE_HINT)
    widget.setMaxLength(10)

    def read() -> Any:
        text = widget.text().strip()
        return text if text else (BLANK if required else None)

    return widget, read, lambda value: widget.setText("" if value is None else str(value))


def line_editor(bounds: Bounds, required: bool) -> Editor:
    widget = QLineEdit()
    if bounds.max_length:
        widget.setMaxLength(bounds.max_length)

    def read() -> Any:
        text = widget.text().strip()
        return BLANK if required and not text else text

    return widget, read, lambda value: widget.setText("" if value is None else str(value))
