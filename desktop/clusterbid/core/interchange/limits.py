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
# Bytes read from disk for CSV/JSON, and the size of an XLSX zip on disk. 10,000 bids of 40
# columns is about 8 MB of CSV; text read costs about twice its size in memory, so 16 MiB keeps
# a refused or accepted file well under 100 MB.
MAX_FILE_BYTES = 16 * 1024 * 1024
# All the text of one sheet's cells together: 10,000 bids of 40 columns of 20 characters.
MAX_SHEET_CHARS = 8_000_000
# openpyxl loads the whole shared-strings table at once, even read-only; bound it before it does.
MAX_SHARED_STRINGS_BYTES = 32 * 1024 * 1024
# One cell as XML text: MAX_CELL_CHARS characters, each at most 4 bytes of UTF-8 or 6 as an
# entity such as &quot;, between two tags. A longer run without '<' is refused while scanning.
MAX_CELL_XML_BYTES = MAX_CELL_CHARS * 6 + 64
# A CSV record: every column at the cell limit, with quotes and separators.
MAX_CSV_LINE_CHARS = MAX_COLUMNS * (MAX_CELL_CHARS + 3)
# Zip-bomb guards, checked from the zip directory before anything is decompressed.
MAX_XLSX_UNCOMPRESSED_BYTES = 200 * 1024 * 1024
MAX_XLSX_MEMBER_BYTES = 150 * 1024 * 1024
MAX_XLSX_MEMBERS = 500
# Spreadsheet XML compresses 10-30x; 100x on a large member is a bomb, not a bid sheet.
MAX_COMPRESSION_RATIO = 100
RATIO_CHECK_FROM_BYTES = 1024 * 1024
# Rows given data validation lists in the exported template.
TEMPLATE_ROWS = 1_000
