"""Exports the scored comparison (any list of row dicts) to XLSX or CSV, formula-injection safe."""

from __future__ import annotations

import csv
import datetime as dt
import math
import re
from collections.abc import Mapping, Sequence
from decimal import Decimal
from pathlib import Path

from openpyxl import Workbook
from openpyxl.styles import Font

from clusterbid.core.interchange.cells import neutralise, to_text
from clusterbid.core.interchange.columns import column_letter
from clusterbid.core.interchange.errors import UnsupportedFormatError
from clusterbid.core.interchange.writing import atomic_output, save_workbook

_SHEET_NAME_FORBIDDEN = re.compile(r"[\[\]:*?/\\]")


def table_columns(
    rows: Sequence[Mapping[str, object]], columns: Sequence[str] | None = None
) -> list[str]:
    """The given column order, or every key in order of first appearance across the rows."""
    if columns is not None:
        return list(columns)
    seen: dict[str, None] = {}
    for row in rows:
        seen.update(dict.fromkeys(row))
    return list(seen)


def _xlsx_value(value: object) -> object:
    """Numbers, dates and booleans stay typed; text is neutralised; anything else becomes its text."""
    if value is None or isinstance(value, (bool, int, Decimal, dt.date)):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else str(value)
    text = value if isinstance(value, str) else str(value)
    return neutralise(text)


def sheet_title(title: str) -> str:
    """An Excel-legal sheet name from the title (max 31 characters, no []:*?/\\)."""
    cleaned = _SHEET_NAME_FORBIDDEN.sub(" ", title).strip().strip("'")[:31].strip()
    return cleaned or "Comparison"


def export_table_xlsx(
    path: str | Path,
    rows: Sequence[Mapping[str, object]],
    title: str,
    columns: Sequence[str] | None = None,
) -> Path:
    """Title in A1, headers in row 3 (frozen), one row per dict; missing keys are blank cells."""
    path = Path(path)
    names = table_columns(rows, columns)
    workbook = Workbook()
    sheet = workbook.active
    sheet.title = sheet_title(title)
    sheet["A1"] = neutralise(title)
    sheet["A1"].font = Font(bold=True, size=14)
    sheet.append([])
    sheet.append([neutralise(name) for name in names])
    for cell in sheet[3]:
        cell.font = Font(bold=True)
    for row in rows:
        sheet.append([_xlsx_value(row.get(name)) for name in names])
    for index, name in enumerate(names):
        sheet.column_dimensions[column_letter(index)].width = max(10, min(len(name) + 2, 40))
    sheet.freeze_panes = "A4"
    return save_workbook(path, workbook)


def export_table_csv(
    path: str | Path,
    rows: Sequence[Mapping[str, object]],
    title: str,
    columns: Sequence[str] | None = None,
) -> Path:
    """Same layout as the XLSX (title line, blank line, header, rows); UTF-8 with BOM for Excel."""
    path = Path(path)
    names = table_columns(rows, columns)
    with atomic_output(path, "w", encoding="utf-8-sig", newline="") as stream:
        writer = csv.writer(stream)
        writer.writerow([to_text(title)])
        writer.writerow([])
        writer.writerow([to_text(name) for name in names])
        for row in rows:
            writer.writerow([to_text(row.get(name)) for name in names])
    return path


def export_table(
    path: str | Path,
    rows: Sequence[Mapping[str, object]],
    title: str,
    columns: Sequence[str] | None = None,
) -> Path:
    """XLSX or CSV by the file's extension."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix == ".xlsx":
        return export_table_xlsx(path, rows, title, columns)
    if suffix == ".csv":
        return export_table_csv(path, rows, title, columns)
    what = suffix or "a file without extension"
    raise UnsupportedFormatError(path, f"cannot export a table as {what}; use .xlsx or .csv")
