"""Provenance columns of the bid sheet (issue 14): one "source.<field>" column per tracked figure.

A cell reads "provider: p.4", "measured: E-3; grade measured_independent", "assumption: J. Diaz;
our own failure history", "default" or "not stated". An empty cell leaves the source to the value:
a figure given is the provider's, an empty figure is not stated (never zero).
"""

from __future__ import annotations

from clusterbid.core.provenance import TRACKED_BID_FIELDS, Source

PREFIX = "source."
WORDS = {
    "provider": "provider",
    "measured": "measured",
    "assumption": "assumption",
    "default": "default",
    "not stated": "not_stated",
    "not_stated": "not_stated",
}
RULE = (
    "provider[: page or clause] | measured: evidence item[; grade G] | assumption: who; why | "
    "default | not stated"
)


def source_keys() -> tuple[str, ...]:
    return tuple(PREFIX + path for path in TRACKED_BID_FIELDS)


def source_to_text(source: Source) -> str:
    """A Source as one sheet cell, read back by `text_to_source`."""
    if source.kind == "not_stated":
        return "not stated"
    if source.kind == "assumption":
        return f"assumption: {source.who}" + (f"; {source.why}" if source.why else "")
    if source.kind == "measured":
        detail = source.reference + (f"; grade {source.grade}" if source.grade else "")
        return "measured" + (f": {detail}" if detail else "")
    return source.kind + (f": {source.reference}" if source.reference else "")


def text_to_source(text: str) -> dict[str, str]:
    """The Source fields a cell describes; an unknown kind is passed on for the model to refuse."""
    head, _, rest = text.partition(":")
    kind = WORDS.get(head.strip().lower(), head.strip())
    rest = rest.strip()
    if kind == "assumption":
        who, _, why = rest.partition(";")
        return {"kind": kind, "who": who.strip(), "why": why.strip()}
    if kind == "measured":
        reference, _, grade = rest.partition(";")
        grade = grade.strip().removeprefix("grade").strip()
        return {"kind": kind, "reference": reference.strip(), "grade": grade}
    return {"kind": kind, **({"reference": rest} if rest else {})}
