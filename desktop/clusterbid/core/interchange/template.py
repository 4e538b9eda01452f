"""Writes the bid template (XLSX with validation lists and instructions, or CSV) officers send out."""

from __future__ import annotations

import csv
from collections.abc import Iterable
from pathlib import Path

from openpyxl import Workbook
from openpyxl.styles import Alignment, Font, PatternFill
from openpyxl.worksheet.datavalidation import DataValidation

from clusterbid.core.bid import Bid
from clusterbid.core.interchange import limits
from clusterbid.core.interchange.cells import neutralise, to_cell, to_text
from clusterbid.core.interchange.columns import NO, YES, Column, bid_columns, column_letter
from clusterbid.core.interchange.errors import UnsupportedFormatError
from clusterbid.core.interchange.sources import source_to_text
from clusterbid.core.interchange.writing import atomic_output, save_workbook

BIDS_SHEET = "Bids"
INSTRUCTIONS_SHEET = "Instructions"
LISTS_SHEET = "Lists"
_REQUIRED_FILL = PatternFill("solid", fgColor="FFF2CC")


def bid_row(bid: Bid) -> list[object]:
    """One bid as sheet cells in column order (evidence is left out: it is attached separately)."""
    data = bid.model_dump()
    row = []
    for column in bid_columns():
        if column.kind == "source":  # issue 14: where the figure came from
            row.append(neutralise(source_to_text(bid.provenance[column.key.split(".", 1)[1]])))
            continue
        value: object = data
        for part in column.path:
            value = value[part]  # type: ignore[index]
        row.append(to_cell(column, value))
    return row


def _validation(column: Column, lists_column: str | None) -> DataValidation | None:
    """An Excel validation rule for the column, so the provider is stopped while typing."""
    common = dict(showErrorMessage=True, errorTitle=column.key, error=column.rule_text()[:255])
    if column.kind == "choice" and lists_column:
        formula = f"{LISTS_SHEET}!${lists_column}$2:${lists_column}${len(column.choices) + 1}"
        return DataValidation(
            type="list", formula1=formula, allow_blank=not column.required, **common
        )
    if column.kind == "bool":
        return DataValidation(
            type="list", formula1=f'"{YES},{NO}"', allow_blank=not column.required, **common
        )
    if column.kind in ("int", "float", "decimal") and (
        column.minimum is not None or column.above is not None
    ):
        low = column.minimum if column.minimum is not None else column.above
        high = column.maximum if column.maximum is not None else 1e15
        kind = "whole" if column.kind == "int" else "decimal"
        operator = "between" if column.minimum is not None else "greaterThan"
        formula2 = str(high) if operator == "between" else None
        return DataValidation(
            type=kind, operator=operator, formula1=str(low), formula2=formula2, **common
        )
    if column.kind == "date":
        return DataValidation(type="date", operator="greaterThan", formula1="1", **common)
    return None


def _write_lists(workbook: Workbook, columns: tuple[Column, ...]) -> dict[str, str]:
    """Choice lists on a hidden sheet: inline lists are capped at 255 characters by Excel."""
    sheet = workbook.create_sheet(LISTS_SHEET)
    placed: dict[str, str] = {}
    for column in (c for c in columns if c.kind == "choice"):
        letter = column_letter(len(placed))
        sheet[f"{letter}1"] = column.key
        for offset, choice in enumerate(column.choices, start=2):
            sheet[f"{letter}{offset}"] = neutralise(choice)
        placed[column.key] = letter
    sheet.sheet_state = "hidden"
    return placed


def _write_instructions(workbook: Workbook, columns: tuple[Column, ...]) -> None:
    sheet = workbook.create_sheet(INSTRUCTIONS_SHEET)
    sheet.append(["How to fill in the Bids sheet"])
    sheet["A1"].font = Font(bold=True, size=14)
    sheet.append(
        [
            "One row per offer. Keep the first row as it is; the id must be unique. "
            "Yellow headers are required. Leave optional cells blank for the default."
        ]
    )
    sheet.append([])
    sheet.append(["Column", "Header", "Meaning", "Unit", "Rule"])
    for cell in sheet[4]:
        cell.font = Font(bold=True)
    for index, column in enumerate(columns):
        sheet.append(
            [
                neutralise(x)
                for x in (
                    column_letter(index),
                    column.header,
                    column.description,
                    column.unit,
                    column.rule_text(),
                )
            ]
        )
    for letter, width in zip("ABCDE", (8, 48, 60, 18, 70)):
        sheet.column_dimensions[letter].width = width


def write_template_xlsx(path: str | Path, bids: Iterable[Bid] = ()) -> Path:
    """The bid template as XLSX; with `bids`, prefilled so an officer can send an offer back for edits."""
    path = Path(path)
    columns = bid_columns()
    workbook = Workbook()
    sheet = workbook.active
    sheet.title = BIDS_SHEET
    sheet.append([column.header for column in columns])
    for index, column in enumerate(columns):
        cell = sheet.cell(row=1, column=index + 1)
        cell.font = Font(bold=True)
        cell.alignment = Alignment(wrap_text=True, vertical="top")
        if column.required:
            cell.fill = _REQUIRED_FILL
        sheet.column_dimensions[column_letter(index)].width = max(
            14, min(len(column.header) + 2, 40)
        )
    for bid in bids:
        sheet.append(bid_row(bid))
    for row in sheet.iter_rows(min_row=2):
        for column, cell in zip(columns, row):
            if column.kind == "date":
                cell.number_format = "yyyy-mm-dd"
    sheet.freeze_panes = "B2"  # header row and the id column stay in view
    lists = _write_lists(workbook, columns)
    last_row = max(limits.TEMPLATE_ROWS, sheet.max_row) + 1
    for index, column in enumerate(columns):
        rule = _validation(column, lists.get(column.key))
        if rule is not None:
            letter = column_letter(index)
            rule.add(f"{letter}2:{letter}{last_row}")
            sheet.add_data_validation(rule)
    _write_instructions(workbook, columns)
    workbook.move_sheet(INSTRUCTIONS_SHEET, offset=-1)  # Bids, Instructions, (hidden) Lists
    return save_workbook(path, workbook)


def write_template_csv(path: str | Path, bids: Iterable[Bid] = ()) -> Path:
    """The bid template as CSV: UTF-8 with a BOM so Excel reads accents right, comma-separated."""
    path = Path(path)
    with atomic_output(path, "w", encoding="utf-8-sig", newline="") as stream:
        writer = csv.writer(stream)
        writer.writerow([column.header for column in bid_columns()])
        for bid in bids:
            writer.writerow([to_text(value) for value in bid_row(bid)])
    return path


def export_template(path: str | Path, bids: Iterable[Bid] = ()) -> Path:
    """The template as XLSX or CSV by the file's extension."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix == ".xlsx":
        return write_template_xlsx(path, bids)
    if suffix == ".csv":
        return write_template_csv(path, bids)
    what = suffix or "a file without extension"
    raise UnsupportedFormatError(path, f"cannot write a template as {what}; use .xlsx or .csv")
