"""The half-finished wizard as JSON in a per-user file, so a crash loses at most a keystroke or two."""

from __future__ import annotations

import json
import os
from pathlib import Path

from PySide6.QtCore import QStandardPaths

from clusterbid.core.safe_read import read_regular

DRAFT_FILE = "bid-wizard-draft.json"
DRAFT_VERSION = 1
MAX_DRAFT_BYTES = 1024 * 1024  # a draft is one bid's fields, a few KB; a bigger file is not ours


def default_draft_path() -> Path:
    folder = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.AppDataLocation)
    return Path(folder) / DRAFT_FILE


class DraftStore:
    """Save, load and clear one draft; writes are atomic (temp file, then rename)."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path or default_draft_path()

    def save(self, draft: dict) -> None:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            temporary = self.path.with_suffix(".tmp")
            temporary.write_text(
                json.dumps({"version": DRAFT_VERSION, **draft}, indent=1), encoding="utf-8"
            )
            os.replace(temporary, self.path)
        except OSError:
            pass  # a full or read-only disk must not stop the officer typing; the draft is a safety net

    def load(self) -> dict | None:
        """The saved draft, or None when there is none or it is not one we wrote."""
        try:
            raw = read_regular(
                self.path, MAX_DRAFT_BYTES
            )  # a FIFO or device here is refused unread
            draft = json.loads(raw.decode("utf-8")) if len(raw) <= MAX_DRAFT_BYTES else None
        except (OSError, ValueError, RecursionError):
            return None
        if (
            not isinstance(draft, dict)
            or draft.get("version") != DRAFT_VERSION
            or not isinstance(draft.get("values"), dict)
        ):
            return None
        return draft

    def clear(self) -> None:
        try:
            self.path.unlink(missing_ok=True)
        except OSError:
            pass
