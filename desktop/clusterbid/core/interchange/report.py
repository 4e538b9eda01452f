"""What an import found: the bids it accepted and every problem, located as the officer sees it."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from pydantic import ValidationError
from pydantic_core import ErrorDetails

from clusterbid.core.bid import Bid
from clusterbid.core.interchange.columns import Column, columns_by_key


@dataclass(frozen=True)
class Problem:
    """One broken rule. `sheet`/`cell` are None for JSON; `row` is 1-based as Excel numbers rows."""

    rule: str
    sheet: str | None = None
    row: int | None = None
    column: str | None = None  # dotted key, e.g. "capacity.gpus_offered"
    cell: str | None = None  # e.g. "F7"

    def location(self) -> str:
        if self.sheet is not None and self.cell:
            where = f"{self.sheet}!{self.cell}"
        elif self.sheet is not None and self.row is not None:
            where = f"{self.sheet} row {self.row}"
        elif self.sheet is not None:
            where = self.sheet
        elif self.row is not None:
            where = f"bid {self.row}"
        else:
            where = "file"
        return f"{where} ({self.column})" if self.column else where

    def __str__(self) -> str:
        return f"{self.location()}: {self.rule}"


@dataclass(frozen=True)
class ImportReport:
    """Bids accepted and problems found. All-or-nothing imports leave `bids` empty on any problem."""

    source: str
    bids: tuple[Bid, ...] = ()
    problems: tuple[Problem, ...] = ()
    rows_read: int = 0
    rejected_rows: tuple[int, ...] = field(default=())

    @property
    def ok(self) -> bool:
        return not self.problems

    def summary(self) -> str:
        head = f"{self.source}: {self.rows_read} row(s) read, {len(self.bids)} bid(s) imported"
        if self.problems:
            head += f", {len(self.problems)} problem(s)"
            if self.rejected_rows:
                head += f" in row(s) {', '.join(map(str, self.rejected_rows))}"
        return head

    def as_text(self) -> str:
        return "\n".join([self.summary(), *(f"  {p}" for p in self.problems)])

    def as_dict(self) -> dict[str, Any]:  # JSON for --json: values of several types
        return {
            "source": self.source,
            "ok": self.ok,
            "rows_read": self.rows_read,
            "bids": [bid.model_dump(mode="json") for bid in self.bids],
            "rejected_rows": list(self.rejected_rows),
            "problems": [
                {
                    "sheet": p.sheet,
                    "row": p.row,
                    "column": p.column,
                    "cell": p.cell,
                    "rule": p.rule,
                    "text": str(p),
                }
                for p in self.problems
            ],
        }


def _show(value: object) -> str:
    text = repr(value) if isinstance(value, str) else str(value)
    return text if len(text) <= 60 else text[:57] + "..."


def plain_rule(error: ErrorDetails) -> str:
    """A pydantic error dict in the officer's words: the value given and the rule it breaks."""
    kind, ctx, given = error["type"], error.get("ctx") or {}, error.get("input")
    shown = _show(given)
    words = {
        "missing": "required, but the cell is empty",
        "greater_than_equal": f"{shown} is below the minimum {ctx.get('ge')}",
        "less_than_equal": f"{shown} is above the maximum {ctx.get('le')}",
        "greater_than": f"{shown} must be above {ctx.get('gt')}",
        "less_than": f"{shown} must be below {ctx.get('lt')}",
        "int_parsing": f"{shown} is not a whole number",
        "int_from_float": f"{shown} is not a whole number",
        "int_type": f"{shown} is not a whole number",
        "float_parsing": f"{shown} is not a number",
        "float_type": f"{shown} is not a number",
        "decimal_parsing": f"{shown} is not a number",
        "decimal_type": f"{shown} is not a number",
        "decimal_max_places": f"{shown} has more than {ctx.get('decimal_places')} decimal places",
        "decimal_max_digits": f"{shown} has more than {ctx.get('max_digits')} digits",
        "finite_number": f"{shown} is not a finite number",
        "bool_parsing": f"{shown} is not yes or no",
        "bool_type": f"{shown} is not yes or no",
        "date_parsing": f"{shown} is not a date; write YYYY-MM-DD",
        "date_from_datetime_parsing": f"{shown} is not a date; write YYYY-MM-DD",
        "date_from_datetime_inexact": f"{shown} has a time of day; give just the date",
        "date_type": f"{shown} is not a date; write YYYY-MM-DD",
        "literal_error": f"{shown} is not one of: {ctx.get('expected', '')}",
        "string_pattern_mismatch": f"{shown} does not match the required form {ctx.get('pattern')}",
        "string_too_long": f"{shown} is longer than {ctx.get('max_length')} characters",
        "string_too_short": "must not be empty",
        "string_type": f"{shown} is not text",
        "extra_forbidden": "is not a field of a bid",
    }
    if kind in words:
        return words[kind]
    message = error.get("msg", kind)
    # Model validators raise ValueError; pydantic prefixes their text with "Value error, ".
    return re.sub(r"^(Value|Assertion) error, ", "", message)


def _blamed_column(
    loc: tuple[str | int, ...], message: str, known: dict[str, Column]
) -> str | None:
    """The column an error belongs to; for a whole-section rule, the first column its text names."""
    dotted = ".".join(str(part) for part in loc)
    if dotted in known:
        return dotted
    prefix = f"{dotted}." if dotted else ""
    candidates = [key for key in known if key.startswith(prefix)]
    best: tuple[int, str] | None = None
    for key in candidates:
        for name in (key, key[len(prefix) :], key.rsplit(".", 1)[-1]):
            hit = re.search(rf"(?<![\w.]){re.escape(name)}(?!\w)", message)
            if hit and (best is None or hit.start() < best[0]):
                best = (hit.start(), key)
    if best:
        return best[1]
    # A list item (facility.certifications.1) belongs to its list column.
    for cut in range(len(loc) - 1, 0, -1):
        head = ".".join(str(part) for part in loc[:cut])
        if head in known:
            return head
    return dotted or None


def problems_from_validation(
    exc: ValidationError, sheet: str | None, row: int, cell_of: Callable[[str | None], str | None]
) -> list[Problem]:
    """Problems for one row's ValidationError; `cell_of(column_key)` gives the cell, e.g. "F7"."""
    known = columns_by_key()
    problems = []
    for error in exc.errors():
        rule = plain_rule(error)
        loc = tuple(error["loc"])
        if loc[:1] == ("provenance",) and len(loc) > 1:  # a source cell: blame its "source." column
            loc = (f"source.{loc[1]}",)
        key = _blamed_column(loc, rule, known)
        problems.append(Problem(rule=rule, sheet=sheet, row=row, column=key, cell=cell_of(key)))
    return problems
