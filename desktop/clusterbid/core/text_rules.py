"""One rule for text typed or imported into the models: no control, bidi-override or invisible
characters.

ESC and BEL reach the terminal raw (`clusterbid score` prints provider names), NUL and C1 codes
break the XLSX export (openpyxl refuses them) and PDF text, and the right-to-left overrides make a
name display as something else ("Acme\u202eSI" reads backwards) in the PDF, the XLSX and the CSV.
Zero-width and other default-ignorable characters (Unicode's Default_Ignorable_Code_Point: the
zero-width space and joiners, word joiner, invisible operators, soft hyphen, BOM, variation
selectors, Hangul fillers, tags) draw nothing, so "Acme" and "Ac\u200bme" look the same in the
table and the memo while being two providers. Tab and line breaks stay allowed (notes and
rationales have several lines), and so do the bidi marks U+200E/U+200F, which do not reorder
text around them.
"""

from __future__ import annotations

import re
import unicodedata

from pydantic import BaseModel

CONTROL_AND_BIDI = "\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069"
# Default_Ignorable_Code_Point (Unicode DerivedCoreProperties.txt) less U+200E/U+200F (above).
INVISIBLE = (
    "\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200d"
    "\u2060-\u2064\u206a-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff0-\ufff8"
    "\U0001bca0-\U0001bca3\U0001d173-\U0001d17a\U000e0000-\U000e0fff"
)
FORBIDDEN = re.compile(f"[{CONTROL_AND_BIDI}{INVISIBLE}]")
NAMES = {
    "\x00": "NUL",
    "\x07": "BEL",
    "\x08": "BS",
    "\x1b": "ESC",
    "\x7f": "DEL",
    "\x9b": "CSI",
    "\u202e": "RIGHT-TO-LEFT OVERRIDE",
    "\u202d": "LEFT-TO-RIGHT OVERRIDE",
}


# The bidi marks are allowed for right-to-left names, but they draw nothing either: two names that
# differ only by them look the same, so across an evaluation's bids that is refused (issue 35).
DIRECTION_MARKS = str.maketrans("", "", "\u200e\u200f")


def look_alike(names: list[str]) -> tuple[int, int] | None:
    """(i, j) of the first two different names that print the same once the direction marks,
    which draw nothing, are taken out; None when every name looks as different as it is."""
    first_seen: dict[str, int] = {}
    for index, name in enumerate(names):
        shown = name.translate(DIRECTION_MARKS)
        earlier = first_seen.setdefault(shown, index)
        if names[earlier] != name:
            return earlier, index
    return None


def describe(char: str) -> str:
    name = NAMES.get(char) or unicodedata.name(char, "a control character")
    return f"{name} (U+{ord(char):04X})"


def text_problem(value: str, where: str) -> str | None:
    """The message for the first forbidden character in `value`, or None when it is clean."""
    found = FORBIDDEN.search(value)
    if found is None:
        return None
    kind = (
        "an invisible character"
        if re.match(f"[{INVISIBLE}]", found.group())
        else "control and text-direction override characters"
    )
    rule = (
        "it draws nothing, so two names that differ by it look the same"
        if kind == "an invisible character"
        else "they are not allowed"
    )
    return (
        f"{where} holds the character {describe(found.group())} at position {found.start() + 1}; "
        f"{kind}: {rule}; retype the text without it"
    )


# Validation context set by a reader that already scanned the whole JSON text once (the store,
# on open): the per-model walk over every string is then skipped. Every other door (an edit, an
# import, evidence) validates without it and so checks its text field by field.
TEXT_ALREADY_CHECKED = "text_already_checked"
# A JSON escape that may hide a forbidden character: \uXXXX, \b (BS) and \f (FF). Tab, line
# breaks and quotes are allowed; an escaped backslash before a u, b or f is a false alarm, which
# only sends the text down the field-by-field check.
HIDING_ESCAPES = ("\\u", "\\b", "\\f")
ASCII_CONTROLS = bytes([*range(0x00, 0x09), 0x0B, 0x0C, *range(0x0E, 0x20), 0x7F])


def json_text_is_plain(json_text: str) -> bool:
    """True when no string in `json_text` can hold a forbidden character: one pass in C instead of
    a walk over every string of every model (58% of opening a 1,000-bid document). ASCII text
    (the usual case) is checked by deleting its control bytes, several times faster than FORBIDDEN."""
    if any(escape in json_text for escape in HIDING_ESCAPES):
        return False
    if json_text.isascii():
        raw = json_text.encode("ascii")
        return len(raw.translate(None, ASCII_CONTROLS)) == len(raw)
    return FORBIDDEN.search(json_text) is None


def already_checked(context: object) -> bool:
    return isinstance(context, dict) and context.get(TEXT_ALREADY_CHECKED) is True


def check_model_text(model: BaseModel, prefix: str = "", skip: tuple[str, ...] = ()) -> None:
    """Raise ValueError naming the field (e.g. quote.provider) of the first bad text in `model`."""
    for name, value in model.__dict__.items():
        if name in skip:
            continue
        problem = _check_value(value, f"{prefix}{name}")
        if problem:
            raise ValueError(problem)


def _check_value(value: object, where: str) -> str | None:
    if isinstance(value, str):
        return text_problem(value, where)
    if isinstance(value, BaseModel):
        for name, item in value.__dict__.items():
            problem = _check_value(item, f"{where}.{name}")
            if problem:
                return problem
    elif isinstance(value, (tuple, list)):
        for index, item in enumerate(value):
            problem = _check_value(item, f"{where}[{index}]")
            if problem:
                return problem
    elif isinstance(value, dict):
        for key, item in value.items():
            problem = _check_value(key, f"{where} key") or _check_value(item, f"{where}[{key!r}]")
            if problem:
                return problem
    return None
