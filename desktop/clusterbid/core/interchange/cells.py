"""Cell values in and out: formula-injection neutralising on export, typed parsing on import."""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Iterable
from decimal import Decimal, InvalidOperation

from clusterbid.core.interchange.columns import LIST_SEPARATOR, NO, YES, Column

# A spreadsheet treats text starting with these as a formula (or, for tab/CR, strips them and
# then may); OWASP "CSV injection" recommends prefixing a single quote.
FORMULA_TRIGGERS = ("=", "+", "-", "@", "\t", "\r")
_TRUE = frozenset({"yes", "y", "true", "1"})
_FALSE = frozenset({"no", "n", "false", "0"})


def neutralise(value: object) -> object:
    """Text that a spreadsheet would run as a formula gets a leading quote; numbers pass through."""
    if isinstance(value, str) and value.startswith(FORMULA_TRIGGERS):
        return "'" + value
    return value


def unneutralise(text: str) -> str:
    """Undo `neutralise` so a round-tripped "=HYPERLINK(..)" provider name comes back unchanged."""
    if len(text) > 1 and text[0] == "'" and text[1] in "".join(FORMULA_TRIGGERS):
        return text[1:]
    return text


def to_cell(column: Column, value: object) -> object:
    """A model value as a spreadsheet cell: yes/no, ;-joined lists, dates and numbers kept typed."""
    if value is None:
        return None
    if column.kind == "bool":
        return YES if value else NO
    if column.kind == "list":
        items = value if isinstance(value, Iterable) else (value,)  # the model's lists are tuples
        return LIST_SEPARATOR.join(str(item) for item in items)
    return neutralise(value) if isinstance(value, str) else value


def to_text(value: object) -> str:
    """A cell as CSV text; numbers in plain notation so they read back exactly."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return YES if value else NO
    if isinstance(value, dt.datetime):
        return value.date().isoformat() if value.time() == dt.time() else value.isoformat(sep=" ")
    if isinstance(value, dt.date):
        return value.isoformat()
    if isinstance(value, float):
        return repr(value) if math.isfinite(value) else str(value)
    if isinstance(value, Decimal):
        return format(value, "f")
    return str(neutralise(value) if isinstance(value, str) else value)


def is_blank(value: object) -> bool:
    return value is None or (isinstance(value, str) and not value.strip())


def from_cell(column: Column, value: object) -> object:
    """A cell (text from CSV, typed from XLSX) as input for the model, which does the validating.

    Only representation is handled here (spreadsheet dates, yes/no, lists, floats for money);
    anything unreadable is passed through so the model reports it with its own rule.
    """
    if isinstance(value, str):
        value = unneutralise(value.strip())
    if column.kind == "date" and isinstance(value, dt.datetime):
        return value.date() if value.time() == dt.time() else value
    if column.kind == "bool" and isinstance(value, str) and value.lower() in _TRUE | _FALSE:
        return value.lower() in _TRUE
    if column.kind == "list":
        items = value.split(LIST_SEPARATOR) if isinstance(value, str) else [value]
        # A non-text item (a number typed into an XLSX cell) passes through for the model's rule.
        return tuple(
            item.strip() if isinstance(item, str) else item for item in items if not is_blank(item)
        )
    if column.kind == "decimal" and isinstance(value, float):
        # repr gives the shortest text that reads back as the same float: 2.49, not 2.4900000001.
        try:
            return Decimal(repr(value))
        except InvalidOperation:
            return value
    if (
        column.kind in ("str", "choice")
        and isinstance(value, (int, float))
        and not isinstance(value, bool)
    ):
        # Excel turns an id typed as 1001 into a number; the model wants the text.
        return str(int(value)) if float(value).is_integer() else str(value)
    return value
