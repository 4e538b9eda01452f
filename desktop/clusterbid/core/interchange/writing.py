"""Output files of the interchange (template, comparison) go through the one safe writer."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

from clusterbid.core.safe_files import atomic_output, write_bytes_atomically


def save_workbook(path: Path, workbook: Any) -> Path:
    """Save an openpyxl workbook whole or not at all.

    The workbook is zipped in memory first: saved straight into a file that fails (a full disk),
    openpyxl's ZipFile is left half open and Python later prints "Exception ignored ... Traceback"
    when it is collected, after our message. In memory it cannot fail half way."""
    buffer = io.BytesIO()
    workbook.save(buffer)
    return write_bytes_atomically(path, buffer.getvalue())


__all__ = ["atomic_output", "save_workbook"]
