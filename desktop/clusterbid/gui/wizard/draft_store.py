"""The half-finished wizard as JSON in a per-user file, so a crash loses at most a keystroke or two."""

from __future__ import annotations

import json
import os
from pathlib import Path

from PySide6.QtCore import QStandardPaths

DRAFT_FILE = "bid-wizard-draft.json"
DRAFT_VERSION = 1


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
            temporary.write_text(json.dumps({"version": DRAFT_VERSION, **draft}, indent=1), encoding="utf-8")
            os.replace(temporary, self.path)
        except OSError:
            pass  # a full or read-only disk must not stop the officer typing; the draft is a safety net

    def load(self) -> dict | None:
        """The saved draft, or None when there is none or it is not one we wrote."""
        try:
            draft = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        if not isinstance(draft, dict) or draft.get("version") != DRAFT_VERSION or not isinstance(draft.get("values"), dict):
            return None
        return draft

    def clear(self) -> None:
        try:
            self.path.unlink(missing_ok=True)
        except OSError:
            pass
