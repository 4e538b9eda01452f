"""Imports filled bid templates (XLSX, CSV) and JSON bids into validated Bid objects with a report."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import ValidationError

from clusterbid.core.bid import Bid
from clusterbid.core.errors import InputError
from clusterbid.core.interchange import limits
from clusterbid.core.interchange.cells import from_cell, is_blank
from clusterbid.core.interchange.columns import Column, bid_columns, column_letter, parse_header
from clusterbid.core.interchange.errors import (
    CorruptFileError,
    FileTooLargeError,
    InterchangeError,
    UnsupportedFormatError,
)
from clusterbid.core.interchange.readers import Sheet, read_csv, read_text, read_xlsx
from clusterbid.core.interchange.report import ImportReport, Problem, problems_from_validation
from clusterbid.core.interchange.sources import text_to_source
from clusterbid.core.json_input import MAX_JSON_BYTES, loads
from clusterbid.core.provenance import TRACKED_BID_FIELDS
from clusterbid.core.provenance.defaults import FEE_DEFAULTS
from clusterbid.core.safe_read import open_regular
from clusterbid.core.text_rules import DIRECTION_MARKS

SUPPORTED = (".xlsx", ".csv", ".json")


def import_bids(path: str | Path, *, valid_rows_only: bool = False) -> ImportReport:
    """Read bids from a filled template or JSON file.

    All-or-nothing by default: any problem means no bids. With `valid_rows_only`, rows that pass
    are imported and the others listed. Problems with the header (unknown or missing columns)
    always stop the import, since no row can be trusted then. Hostile or unreadable files raise
    an InterchangeError (an InputError) instead of producing a report.
    """
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix in SUPPORTED and not path.exists():
        raise InterchangeError(path, "no such file")
    if suffix in SUPPORTED and not path.is_file():  # say what it is, without opening it
        try:
            open_regular(path).close()
        except OSError as exc:
            raise InterchangeError(path, f"cannot be read ({exc.strerror or exc})") from None
    if suffix == ".xlsx":
        return _from_sheet(path, read_xlsx(path), valid_rows_only)
    if suffix == ".csv":
        return _from_sheet(path, read_csv(path), valid_rows_only)
    if suffix == ".json":
        return _from_json(path, valid_rows_only)
    what = suffix or "files without an extension"
    raise UnsupportedFormatError(path, f"cannot import {what}; use {', '.join(SUPPORTED)}")


def _header_map(sheet: Sheet) -> tuple[dict[int, Column], list[Problem]]:
    known = {column.key: column for column in bid_columns()}
    mapping: dict[int, Column] = {}
    seen: dict[str, int] = {}
    problems = []
    for index, text in enumerate(sheet.header):
        cell = f"{column_letter(index)}1"
        if is_blank(text):
            continue
        key = parse_header(text)
        if key not in known:
            problems.append(
                Problem(f"unknown column header {str(text)[:80]!r}", sheet.name, 1, None, cell)
            )
        elif key in seen:
            first = column_letter(seen[key])
            problems.append(
                Problem(f"column appears twice (first in column {first})", sheet.name, 1, key, cell)
            )
        else:
            seen[key] = index
            mapping[index] = known[key]
    for column in known.values():
        if column.required and column.key not in seen:
            problems.append(
                Problem("required column is missing from the header row", sheet.name, 1, column.key)
            )
    if not sheet.header:
        problems = [Problem("the sheet is empty: no header row", sheet.name)]
    return mapping, problems


# A bid as nested JSON-like sections for Bid.model_validate, which checks every value.
def _nest(pairs: list[tuple[Column, object]]) -> dict[str, Any]:
    # Every section is present (maybe empty) so a blank required cell is reported as that field
    # missing, not as the whole section missing.
    data: dict[str, Any] = {
        column.path[0]: {}
        for column in bid_columns()
        if len(column.path) > 1 and column.kind != "source"
    }
    for column, value in pairs:
        if column.kind == "source":
            path = column.key.split(".", 1)[1]
            data.setdefault("provenance", {})[path] = text_to_source(str(value))
            continue
        target = data
        *sections, name = column.path
        for section in sections:
            target = target.setdefault(section, {})
        target[name] = value
    return data


def _not_stated_where_empty(data: dict[str, Any], present: set[str]) -> dict[str, Any]:
    """Issue 14: an empty cell of a figure the provider may omit is "not stated", never zero nor a
    silent default. (A column missing from an older sheet takes the default, as migration does.)"""
    for path in (*TRACKED_BID_FIELDS, *FEE_DEFAULTS):  # fees, steps, payment terms (issue 31)
        section, name = path.split(".")
        if path not in present or name in data.get(section, {}):
            continue
        if section in ("reliability", "terms"):  # terms: exit fee and escalation (issue 31)
            data.setdefault(section, {})[name] = None
        else:  # the spare pool stays a number: left at its default, recorded as not stated
            data.setdefault("provenance", {}).setdefault(path, {"kind": "not_stated"})
    return data


def _row_cells(
    mapping: dict[int, Column], values: tuple[object, ...], sheet_name: str, number: int
) -> tuple[list[tuple[Column, object]], list[Problem]]:
    """(column, value) of each filled cell under a header, and a problem for each filled cell
    under none (a value the officer typed that no field would read)."""
    pairs: list[tuple[Column, object]] = []
    problems: list[Problem] = []
    for index, value in enumerate(values):
        if is_blank(value):
            continue
        if index in mapping:
            pairs.append((mapping[index], from_cell(mapping[index], value)))
        else:
            problems.append(
                Problem(
                    "a value in a column with no header",
                    sheet_name,
                    number,
                    None,
                    f"{column_letter(index)}{number}",
                )
            )
    return pairs, problems


def _from_sheet(path: Path, sheet: Sheet, valid_rows_only: bool) -> ImportReport:
    mapping, header_problems = _header_map(sheet)
    if header_problems:
        return ImportReport(
            source=path.name, problems=tuple(header_problems), rows_read=len(sheet.rows)
        )
    letters = {column.key: column_letter(index) for index, column in mapping.items()}
    rows: list[tuple[int, object, Bid | None]] = []
    problems: list[Problem] = []
    id_index = next((index for index, column in mapping.items() if column.key == "id"), None)
    for number, values in sheet.rows:
        pairs, row_problems = _row_cells(mapping, values, sheet.name, number)
        bid = None
        try:
            bid = Bid.model_validate(_not_stated_where_empty(_nest(pairs), set(letters)))
        except ValidationError as exc:

            def cell_of(key: str | None, row: int = number) -> str | None:
                return f"{letters[key]}{row}" if key is not None and key in letters else None

            row_problems += problems_from_validation(exc, sheet.name, number, cell_of)
        has_id = id_index is not None and id_index < len(values)
        raw_id = (
            from_cell(mapping[id_index], values[id_index])
            if id_index is not None and has_id
            else None
        )
        rows.append((number, raw_id, None if row_problems else bid))
        problems += row_problems
    return _finish(
        path,
        sheet.name,
        rows,
        problems,
        valid_rows_only,
        letters.get("id"),
        letters.get("quote.provider"),
    )


def _finish(
    path: Path,
    sheet: str | None,
    rows: list[tuple[int, object, Bid | None]],
    problems: list[Problem],
    valid_rows_only: bool,
    id_letter: str | None,
    provider_letter: str | None = None,
) -> ImportReport:
    """Flag reused ids (every use after the first, valid row or not) and look-alike providers,
    then apply the import mode."""
    if not rows:
        problems.append(
            Problem(
                "no bids: nothing below the header row" if sheet else "no bids in the file", sheet
            )
        )
    first_row: dict[str, int] = {}
    duplicates: set[int] = set()
    for number, raw_id, _ in rows:
        if not isinstance(raw_id, str) or is_blank(raw_id):
            continue
        if raw_id in first_row:
            duplicates.add(number)
            cell = f"{id_letter}{number}" if id_letter else None
            rule = (
                f"bid id {raw_id!r} is already used in row {first_row[raw_id]}; ids must be unique"
            )
            problems.append(Problem(rule, sheet, number, "id", cell))
        else:
            first_row[raw_id] = number
    alike = _look_alike_providers(rows, sheet, provider_letter)
    problems += alike
    duplicates.update(problem.row for problem in alike if problem.row is not None)
    kept = tuple(bid for number, _, bid in rows if bid is not None and number not in duplicates)
    rejected = tuple(sorted({p.row for p in problems if p.row is not None}))
    return ImportReport(
        source=path.name,
        bids=kept if (valid_rows_only or not problems) else (),
        problems=tuple(sorted(problems, key=lambda p: p.row or 0)),
        rows_read=len(rows),
        rejected_rows=rejected,
    )


def _look_alike_providers(
    rows: list[tuple[int, object, Bid | None]], sheet: str | None, letter: str | None
) -> list[Problem]:
    """Rows whose provider prints like an earlier row's but differs by a direction mark: refused
    here, by row and cell, as the evaluation would refuse them once added (checking a sheet alone
    finds it too, before the provider is sent back to fix it)."""
    first: dict[str, tuple[int, str]] = {}
    found = []
    for number, _, bid in rows:
        if bid is None:
            continue
        name = bid.quote.provider
        shown = name.translate(DIRECTION_MARKS)
        earlier_row, earlier_name = first.setdefault(shown, (number, name))
        if earlier_name != name:
            rule = (
                f"provider {shown!r} looks the same as row {earlier_row}'s but differs by an "
                "invisible "
                "direction mark (U+200E or U+200F); spell one provider one way"
            )
            found.append(
                Problem(
                    rule, sheet, number, "quote.provider", f"{letter}{number}" if letter else None
                )
            )
    return found


def _from_json(path: Path, valid_rows_only: bool) -> ImportReport:
    """A JSON list of bids, or an object with a `bids` list (an evaluation file)."""
    size = path.stat().st_size if path.is_file() else 0
    if size > MAX_JSON_BYTES:  # before reading: parsed JSON costs several times its size
        raise FileTooLargeError(
            path, f"{size:,} bytes is over the {MAX_JSON_BYTES:,}-byte limit for a JSON bid file"
        )
    text = read_text(path)
    try:
        data = loads(text, path.name)
    except InputError as exc:
        raise CorruptFileError(path, str(exc).removeprefix(f"{path.name}").lstrip(": ")) from None
    items = data.get("bids") if isinstance(data, dict) else data
    if not isinstance(items, list):
        raise CorruptFileError(path, "expected a list of bids, or an object with a 'bids' list")
    if len(items) > limits.MAX_BIDS:
        raise FileTooLargeError(path, f"{len(items):,} bids; the limit is {limits.MAX_BIDS:,}")
    rows: list[tuple[int, object, Bid | None]] = []
    problems: list[Problem] = []
    for number, item in enumerate(items, start=1):
        raw_id = item.get("id") if isinstance(item, dict) else None
        try:
            rows.append((number, raw_id, Bid.model_validate(item)))
        except ValidationError as exc:
            rows.append((number, raw_id, None))
            problems += problems_from_validation(exc, None, number, lambda key: None)
    return _finish(path, None, rows, problems, valid_rows_only, None)
