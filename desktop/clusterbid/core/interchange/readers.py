"""Reads sheet rows from XLSX and CSV within the size limits, refusing hostile or garbled files."""

from __future__ import annotations

import csv
import io
import os
import zipfile
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from xml.etree.ElementTree import ParseError

from clusterbid.core.interchange import limits
from clusterbid.core.interchange.columns import column_letter
from clusterbid.core.interchange.errors import (
    CorruptFileError,
    EncodingError,
    FileTooLargeError,
    InterchangeError,
    UnsafeFileError,
)
from clusterbid.core.interchange.template import BIDS_SHEET
from clusterbid.core.interchange.xlsx_guard import guard_xlsx
from clusterbid.core.safe_read import open_regular


@dataclass(frozen=True)
class Sheet:
    """Rows as read: `rows` holds (Excel row number, cell values), the header row excluded."""

    name: str
    header: tuple[object, ...]
    rows: tuple[tuple[int, tuple[object, ...]], ...]


def _check_cells(path: Path, sheet: str, number: int, values: tuple[object, ...]) -> None:
    for index, value in enumerate(values):
        if isinstance(value, str) and len(value) > limits.MAX_CELL_CHARS:
            raise FileTooLargeError(
                path,
                f"cell {sheet}!{column_letter(index)}{number} holds {len(value):,} characters; "
                f"the limit is {limits.MAX_CELL_CHARS:,}",
            )


def _collect(
    path: Path, sheet: str, numbered_rows: Iterator[tuple[int, tuple[object, ...]]]
) -> Sheet:
    """Header plus non-blank rows, stopping as soon as a limit is passed (so a huge file costs little)."""
    header: tuple[object, ...] | None = None
    rows: list[tuple[int, tuple[object, ...]]] = []
    chars = 0
    for number, values in numbered_rows:
        if number > limits.MAX_SHEET_ROWS:
            raise FileTooLargeError(
                path, f"more than {limits.MAX_SHEET_ROWS:,} rows; split the file"
            )
        if len(values) > limits.MAX_COLUMNS and any(
            v not in (None, "") for v in values[limits.MAX_COLUMNS :]
        ):
            raise FileTooLargeError(
                path, f"row {number} has more than {limits.MAX_COLUMNS} columns"
            )
        values = tuple(values[: limits.MAX_COLUMNS])
        _check_cells(path, sheet, number, values)
        chars += sum(len(v) for v in values if isinstance(v, str))
        if chars > limits.MAX_SHEET_CHARS:  # many cells under the cell limit can still fill memory
            raise FileTooLargeError(
                path,
                f"the cells up to row {number} hold over {limits.MAX_SHEET_CHARS:,} "
                "characters, the limit for one sheet; split the file",
            )
        if all(v is None or (isinstance(v, str) and not v.strip()) for v in values):
            continue
        if header is None:
            header = values
            continue
        rows.append((number, values))
        if len(rows) > limits.MAX_BIDS:
            raise FileTooLargeError(
                path, f"more than {limits.MAX_BIDS:,} bid rows; the limit is {limits.MAX_BIDS:,}"
            )
    return Sheet(name=sheet, header=header or (), rows=tuple(rows))


def read_xlsx(path: Path) -> Sheet:
    """The Bids sheet (or the only sheet) of a workbook, via openpyxl read-only with defusedxml."""
    guard_xlsx(path)
    import openpyxl  # after the guard: openpyxl must see defusedxml when it first parses

    try:
        workbook = openpyxl.load_workbook(path, read_only=True, data_only=True, keep_links=False)
    except InterchangeError:
        raise
    except (
        Exception
    ) as exc:  # openpyxl raises many types (KeyError, ParseError, ...) on broken files
        raise _xlsx_error(path, exc) from None
    try:
        names = workbook.sheetnames
        if BIDS_SHEET in names:
            name = BIDS_SHEET
        elif len(names) == 1:
            name = names[0]
        else:
            raise CorruptFileError(
                path, f"no sheet named {BIDS_SHEET!r} (sheets: {', '.join(names)})"
            )
        worksheet = workbook[name]
        # Stored dimensions can lie (or claim XFD1048576); read what is there, width-capped.
        worksheet.reset_dimensions()
        rows = worksheet.iter_rows(max_col=limits.MAX_COLUMNS + 1, values_only=True)
        try:
            return _collect(
                path, name, ((number, tuple(values)) for number, values in enumerate(rows, start=1))
            )
        except InterchangeError:
            raise
        except Exception as exc:
            raise _xlsx_error(path, exc) from None
    finally:
        workbook.close()


def _xlsx_error(path: Path, exc: Exception) -> InterchangeError:
    # openpyxl wraps parser errors in a ValueError, so look for defusedxml's along the chain.
    cause: BaseException | None = exc
    while cause is not None:
        if type(cause).__module__.startswith("defusedxml"):
            return UnsafeFileError(
                path, f"the workbook's XML uses forbidden constructs ({type(cause).__name__})"
            )
        cause = cause.__cause__ or cause.__context__
    if isinstance(exc, (zipfile.BadZipFile, zlib.error, ParseError, KeyError, EOFError)):
        return CorruptFileError(
            path, f"damaged or not an Excel workbook ({type(exc).__name__}: {exc})"
        )
    return CorruptFileError(
        path, f"cannot be read as an Excel workbook ({type(exc).__name__}: {exc})"
    )


def read_text(path: Path) -> str:
    """A UTF-8 text file (BOM allowed), size-capped; anything else is refused with a message."""
    try:
        with open_regular(path) as stream:  # devices and FIFOs refused before any read
            size = os.fstat(stream.fileno()).st_size
            if size > limits.MAX_FILE_BYTES:
                raise FileTooLargeError(
                    path, f"{size:,} bytes is over the {limits.MAX_FILE_BYTES:,}-byte limit"
                )
            data = stream.read(limits.MAX_FILE_BYTES + 1)
    except OSError as exc:
        raise InterchangeError(path, f"cannot be read ({exc.strerror or exc})") from None
    if len(data) > limits.MAX_FILE_BYTES:  # grew while we looked, or a device file
        raise FileTooLargeError(path, f"over the {limits.MAX_FILE_BYTES:,}-byte limit")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise EncodingError(
            path,
            f"not UTF-8 text (byte {exc.start + 1}, line {line}); save it as 'CSV UTF-8' and try "
            "again",
        ) from None


def _delimiter(text: str) -> str:
    """';' or ',' by what the header line uses more (headers never contain either)."""
    first = text.split("\n", 1)[0]
    return ";" if first.count(";") > first.count(",") else ","


def _check_line_lengths(path: Path, text: str) -> None:
    """A header of a million columns would become a million strings before _collect could count
    them; a line longer than any valid record is refused first (found with C-speed str.find)."""
    start, number = 0, 1
    while start < len(text):
        end = text.find("\n", start)
        end = len(text) if end < 0 else end
        if end - start > limits.MAX_CSV_LINE_CHARS:
            raise FileTooLargeError(
                path,
                f"line {number} is {end - start:,} characters long; a row of "
                f"{limits.MAX_COLUMNS} columns of {limits.MAX_CELL_CHARS:,} characters "
                f"is at most {limits.MAX_CSV_LINE_CHARS:,}",
            )
        start, number = end + 1, number + 1


def read_csv(path: Path) -> Sheet:
    """A CSV sheet: UTF-8 with or without BOM, ';' or ',' separated."""
    text = read_text(path)
    if "\x00" in text:
        raise CorruptFileError(path, "holds NUL bytes; it is not a CSV text file")
    _check_line_lengths(path, text)
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=_delimiter(text))

    def numbered() -> Iterator[tuple[int, tuple[object, ...]]]:
        try:
            # Excel numbers records, not physical lines (a quoted cell may span lines).
            for number, values in enumerate(reader, start=1):
                yield number, tuple(values)
        except csv.Error as exc:
            if "field larger than field limit" in str(exc):
                raise FileTooLargeError(
                    path,
                    f"a cell near line {reader.line_num} is over {limits.MAX_CELL_CHARS:,} "
                    "characters",
                ) from None
            raise CorruptFileError(path, f"line {reader.line_num}: {exc}") from None

    return _collect(path, path.name, numbered())
