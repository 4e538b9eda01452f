"""Where ClusterBid keeps what belongs to the user rather than to a document: the anchor log
(history anchored outside the file) and the key that seals the first-paint table. Kept out of
any document on purpose, so a document copied elsewhere carries neither."""

from __future__ import annotations

import os
import sys
from pathlib import Path


def per_user_data_folder() -> Path:
    """The platform's per-user data folder for ClusterBid (it may not exist yet)."""
    if sys.platform == "win32":
        return Path(os.environ.get("APPDATA") or Path.home() / "AppData" / "Roaming") / "ClusterBid"
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Application Support" / "ClusterBid"
    return Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share") / "clusterbid"
