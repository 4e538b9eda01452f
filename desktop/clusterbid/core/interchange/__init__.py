"""Spreadsheet and JSON interchange: bid templates out, filled templates in, comparisons out."""

from clusterbid.core.interchange.columns import Column, bid_columns, parse_header
from clusterbid.core.interchange.comparison import export_table, export_table_csv, export_table_xlsx
from clusterbid.core.interchange.errors import (
    CorruptFileError,
    EncodingError,
    FileTooLargeError,
    InterchangeError,
    UnsafeFileError,
    UnsupportedFormatError,
)
from clusterbid.core.interchange.importer import import_bids
from clusterbid.core.interchange.report import ImportReport, Problem
from clusterbid.core.interchange.template import (
    export_template,
    write_template_csv,
    write_template_xlsx,
)

__all__ = [
    "Column",
    "CorruptFileError",
    "EncodingError",
    "FileTooLargeError",
    "ImportReport",
    "InterchangeError",
    "Problem",
    "UnsafeFileError",
    "UnsupportedFormatError",
    "bid_columns",
    "export_table",
    "export_table_csv",
    "export_table_xlsx",
    "export_template",
    "import_bids",
    "parse_header",
    "write_template_csv",
    "write_template_xlsx",
]
