"""Settings that only matter inside the frozen (PyInstaller) app."""

from __future__ import annotations

import hashlib
import os
import sys
from pathlib import Path

from clusterbid import __version__


def is_frozen() -> bool:
    return bool(getattr(sys, "frozen", False))


def user_cache_root() -> Path:
    """The platform's per-user cache folder (no Qt here: the CLI runs without it)."""
    home = Path.home()
    if sys.platform == "darwin":
        return home / "Library" / "Caches" / "ClusterBid"
    if sys.platform == "win32":
        return (
            Path(os.environ.get("LOCALAPPDATA", home / "AppData" / "Local"))
            / "ClusterBid"
            / "Cache"
        )
    return Path(os.environ.get("XDG_CACHE_HOME") or home / ".cache") / "clusterbid"


def persistent_matplotlib_cache(bundle_root: Path) -> Path:
    """One matplotlib config folder per installed build.

    PyInstaller's run-time hook points MPLCONFIGDIR at a fresh temporary folder on every launch,
    so matplotlib rebuilds its font cache (about a second) each time a chart is first drawn. A
    one-folder build does not move between launches, so a cache keyed by version and bundle
    location stays valid; a moved or upgraded app gets a new key and a fresh cache.
    """
    key = hashlib.sha256(f"{__version__}|{bundle_root}".encode()).hexdigest()[:12]
    return user_cache_root() / f"matplotlib-{key}"


def configure_frozen_runtime() -> None:
    """Call first thing in the frozen app, before matplotlib is imported."""
    if not is_frozen():
        return
    folder = persistent_matplotlib_cache(Path(sys.executable).resolve().parent)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return  # read-only home: keep PyInstaller's temporary folder, charts still draw
    os.environ["MPLCONFIGDIR"] = str(folder)
