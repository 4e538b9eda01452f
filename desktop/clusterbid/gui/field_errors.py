"""Pydantic's validation errors in an officer's words, routed to the field they are about."""

from __future__ import annotations

import re

from pydantic import ValidationError
from pydantic.fields import FieldInfo

_PLAIN = {
    "missing": "required: please fill this in",
    "float_parsing": "enter a number, e.g. 70 or 0.42",
    "float_type": "enter a number, e.g. 70 or 0.42",
    "int_parsing": "enter a whole number, e.g. 512",
    "int_from_float": "enter a whole number, e.g. 512",
    "int_type": "enter a whole number, e.g. 512",
    "string_too_short": "cannot be empty",
    "finite_number": "enter an ordinary number (not infinity)",
}
_BOUNDS = {
    "greater_than": "must be more than {gt:g}",
    "greater_than_equal": "must be at least {ge:g}",
    "less_than": "must be less than {lt:g}",
    "less_than_equal": "must be at most {le:g}",
}


def plain_message(error: dict) -> str:
    kind = error["type"]
    if kind in _PLAIN:
        return _PLAIN[kind]
    if kind in _BOUNDS and error.get("ctx"):
        return _BOUNDS[kind].format(**{k: float(v) for k, v in error["ctx"].items()})
    return error["msg"].removeprefix("Value error, ")


def route_errors(exc: ValidationError, fields: list[str]) -> tuple[dict[str, list[str]], list[str]]:
    """{field: messages} for errors about one field, and the rest (cross-field rules).

    A cross-field rule that names a field (e.g. "job_gpus (500) must be a multiple of ...") is
    shown beside the first field it names, so the officer sees where to fix it.
    """
    by_field: dict[str, list[str]] = {}
    general: list[str] = []
    for error in exc.errors():
        message = plain_message(error)
        name = _field_at(error["loc"], fields) or _first_named(message, fields)
        if name is None:
            general.append(message)
        else:
            by_field.setdefault(name, []).append(message)
    return by_field, general


def _field_at(loc: tuple, fields: list[str]) -> str | None:
    """The form field an error's location points at; nested sections are "section.field"."""
    for depth in (2, 1):
        name = ".".join(str(part) for part in loc[:depth])
        if len(loc) >= depth and name in fields:
            return name
    return None


def _first_named(message: str, fields: list[str]) -> str | None:
    """The field a cross-field message names first (a nested field by its own name)."""
    found = [
        (m.start(), name)
        for name in fields
        if (m := re.search(rf"\b{re.escape(name.rsplit('.', 1)[-1])}\b", message))
    ]
    return min(found)[1] if found else None


def field_bounds(field: FieldInfo) -> str:
    """ "between 1 and 1,000,000" from the field's ge/gt/le/lt constraints, for tooltips."""
    low = high = None
    for item in field.metadata:
        for attr, sign in (("ge", "≥"), ("gt", ">")):
            if getattr(item, attr, None) is not None:
                low = f"{sign} {getattr(item, attr):,g}"
        for attr, sign in (("le", "≤"), ("lt", "<")):
            if getattr(item, attr, None) is not None:
                high = f"{sign} {getattr(item, attr):,g}"
    return ", ".join(part for part in (low, high) if part)
