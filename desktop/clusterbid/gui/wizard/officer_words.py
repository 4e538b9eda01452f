"""Pydantic's error types and the core's field names, rewritten in words a procurement officer reads."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from clusterbid.core.evidence.model import GRADE_WORDS
from clusterbid.core.terms import BILLING_WORDS

# How a value must look when a pattern rejects it; the pattern itself is not for officers.
FORMAT_HINTS: dict[tuple[str | int, ...], str] = {
    (
        "id",
    ): "Use up to 64 letters, digits, '.', '_' or '-', starting with a letter or digit (e.g. northwind-2027).",
    ("terms", "currency"): "Use a three-letter ISO 4217 code in capitals, e.g. USD, EUR, GBP.",
    ("measured_by",): "Choose who measured the figure: the buyer, a third party or the provider.",
}
# Core messages name fields and values as identifiers; these read better in a form.
PHRASES = (
    ("(artefact_sha256)", "(attach the log or report file)"),
    ("cannot be true", "cannot be ticked"),
    ("Value error, ", ""),
)
# The evaluation's messages address a bid by its index, which the officer never sees.
PATTERNS = (
    (
        r"^bids\[\d+\]: bid id ('[^']*') is used twice; ids must be unique",
        r"Another bid in this evaluation already has the id \1: choose a different id",
    ),
    (
        r"^bids\[\d+\] \([^)]*\) is priced in (\w+) but the evaluation is in (\w+): add "
        r"policy\.exchange_rates\.\w+",
        r"This bid is priced in \1 but the evaluation is in \2 and has no \1 exchange rate: "
        r"price the bid in \2, or add a \1 rate to the evaluation's scoring policy",
    ),
)


def _number(value: float) -> str:
    return f"{value:,}" if isinstance(value, int) else f"{value:g}"


# A pydantic error's fields are of several types (its `input` is whatever was given).
def officer_message(
    error: Mapping[str, Any], path: tuple[str | int, ...], titles: dict[str, str]
) -> str:
    """One pydantic error dict as a sentence; `titles` maps field identifiers to their labels."""
    kind = error["type"]
    ctx = error.get("ctx") or {}
    if kind == "missing":
        return "Required: enter a value."
    if kind == "string_too_short":
        return "Required: this cannot be left empty."
    if kind == "string_too_long":
        return f"Too long: at most {ctx.get('max_length')} characters."
    if kind == "string_pattern_mismatch":
        return FORMAT_HINTS.get(
            path, FORMAT_HINTS.get(path[-1:], "This is not in the expected form.")
        )
    if kind == "greater_than":
        return f"Must be more than {_number(ctx['gt'])}."
    if kind == "greater_than_equal":
        return f"Must be at least {_number(ctx['ge'])}."
    if kind == "less_than_equal":
        return f"Must be at most {_number(ctx['le'])}."
    if kind.startswith("date_"):
        return "Enter a date as YYYY-MM-DD, e.g. 2027-01-15."
    if kind in ("int_parsing", "float_parsing", "decimal_parsing", "int_type", "float_type"):
        return "Enter a number."
    if kind == "decimal_max_places":
        return f"Use at most {ctx.get('decimal_places')} decimal places."
    if kind in ("literal_error", "enum"):
        return f"Choose one of: {ctx.get('expected', 'the listed options')}."
    return readable(error["msg"], titles)


def readable(message: str, titles: dict[str, str], capitalise: bool = True) -> str:
    """Replace `section.field` and `field` identifiers and grade codes in a core message."""
    for old, new in PHRASES:
        message = message.replace(old, new)
    for pattern, replacement in PATTERNS:
        message = re.sub(pattern, replacement, message)
    # Longest identifiers first, so 'capacity.gpus_offered' wins over 'gpus_offered'.
    for name in sorted(titles, key=len, reverse=True):
        message = re.sub(rf"(?<![\w.]){re.escape(name)}\b", titles[name], message)
    for grade, words in GRADE_WORDS.items():
        message = re.sub(rf"\b{grade.value}\b", f"'{words}'", message)
    message = billing_words(message)  # after the titles: "billing" may have become "Billing"
    return message[:1].upper() + message[1:] if capitalise else message


def billing_words(message: str) -> str:
    """The core's billing codes ("billing 'reserved'", "choose 'block'") as the wizard's billing
    list names them ("reserved term billing", "choose reserved term")."""
    for kind, words in BILLING_WORDS.items():
        short = words.split(" (")[0]
        message = re.sub(rf"(?i)\bbilling {re.escape(repr(kind))}", f"{short} billing", message)
        message = message.replace(repr(kind), short)
    return message


def first_mentioned(message: str, names: list[str]) -> str | None:
    """The identifier among `names` that the message mentions first (core messages lead with the culprit)."""
    best: tuple[int, str] | None = None
    for name in names:
        match = re.search(rf"(?<![\w.]){re.escape(name)}\b", message)
        if match and (best is None or match.start() < best[0]):
            best = (match.start(), name)
    return best[1] if best else None
