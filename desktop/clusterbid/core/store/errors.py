"""Errors raised by the evaluation store, each an InputError naming the file and the rule."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from clusterbid.core.errors import InputError


class DocumentError(InputError):
    """A .clusterbid file could not be opened, read or written; the message says why."""

    def __init__(self, path: Path | str, message: str) -> None:
        self.path = Path(path)
        super().__init__(f"{self.path.name}: {message}")


class NotADocumentError(DocumentError):
    """The file is not an SQLite database, or is one that ClusterBid did not make."""


class NewerDocumentError(DocumentError):
    """The file was made by a newer ClusterBid whose schema this version does not know."""


class CorruptDocumentError(DocumentError):
    """The file failed SQLite's integrity check or holds data that no longer validates."""


class UnsafeDocumentError(DocumentError):
    """The file carries schema objects (triggers, views, tables) that ClusterBid did not create."""


class LockedDocumentError(DocumentError):
    """Another program holds a lock on the file; it is not damaged."""


class DocumentWriteError(DocumentError):
    """An edit could not be committed; the document on disk is as it was before the edit."""


class ArtefactError(DocumentError):
    """An evidence artefact was refused (too large, unknown) or failed its checksum."""


class EditRejectedError(DocumentError):
    """An edit would make the evaluation invalid; nothing was written. `errors` keeps pydantic's locations."""

    def __init__(
        self, path: Path | str, message: str, errors: list[dict[str, Any]] | None = None
    ) -> None:
        self.errors = errors or []
        super().__init__(path, message)
