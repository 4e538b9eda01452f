"""Size limits that keep a hostile or mistaken file from exhausting memory or time."""

from __future__ import annotations

# A procurement round has tens of bids; 10,000 leaves room for bulk re-imports while bounding
# the work a malicious sheet can cause.
MAX_BIDS = 10_000
# Blank rows Excel keeps after deletions still cost parsing time; bound them separately.
MAX_SHEET_ROWS = 50_000
# The bid sheet has about 40 columns; extra columns beyond this are never read.
MAX_COLUMNS = 200
# The longest bid field is 200 characters; anything near a kilobyte is a mistake or an attack.
MAX_CELL_CHARS = 1_000
# Bytes read from disk for CSV/JSON, and the size of an XLSX zip on disk.
MAX_FILE_BYTES = 64 * 1024 * 1024
# Zip-bomb guards, checked from the zip directory before anything is decompressed.
MAX_XLSX_UNCOMPRESSED_BYTES = 200 * 1024 * 1024
MAX_XLSX_MEMBER_BYTES = 150 * 1024 * 1024
MAX_XLSX_MEMBERS = 500
# Spreadsheet XML compresses 10-30x; 100x on a large member is a bomb, not a bid sheet.
MAX_COMPRESSION_RATIO = 100
RATIO_CHECK_FROM_BYTES = 1024 * 1024
# Rows given data validation lists in the exported template.
TEMPLATE_ROWS = 1_000
