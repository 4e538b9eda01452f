"""Why a whole file is refused: each error names the file and what to do about it."""

from __future__ import annotations

from pathlib import Path

from clusterbid.core.errors import InputError


class InterchangeError(InputError):
    """A file that cannot be imported or written at all (as opposed to rows with problems)."""

    def __init__(self, path: str | Path, problem: str) -> None:
        self.path = Path(path)
        self.problem = problem
        super().__init__(f"{self.path.name}: {problem}")


class UnsupportedFormatError(InterchangeError):
    """The extension is not one of .xlsx, .csv, .json."""


class UnsafeFileError(InterchangeError):
    """The file looks hostile: zip bomb, XML entities, or a parser without XML defences."""


class CorruptFileError(InterchangeError):
    """The bytes are not the format the extension claims (e.g. random bytes named .xlsx)."""


class FileTooLargeError(InterchangeError):
    """The file, a sheet, a row count or a cell exceeds the limits in interchange.limits."""


class EncodingError(InterchangeError):
    """A text file that is not UTF-8."""
