"""Memo chart pixels kept between exports, so a re-export skips matplotlib altogether.

An officer exports the memo, then exports again with other notes, approvers or an override:
none of those change a chart, yet drawing the four charts (importing matplotlib, laying out
and rasterising at print resolution) was most of the export time. Each chart's RGB pixels are
kept as a lossless PNG under a key made of everything the chart is drawn from: its caption,
the scorecard, bands and sensitivity (their reprs: frozen dataclasses and pydantic models of
plain values), the print style and resolution, the source of the chart code, and the versions
of matplotlib and Pillow. Same key, same pixels: the memo's bytes do not depend on a hit or a
miss (tests/core/memo/test_chart_cache.py). A folder that cannot be written only means misses.
The key relies on those reprs showing every field: a field declared with repr=False would have
to be added to the key by hand.
"""

from __future__ import annotations

import functools
import hashlib
import os
from importlib import metadata
from pathlib import Path

# A folder to keep the charts in, or "off"; by default the user's cache folder.
CACHE_ENV = "CLUSTERBID_CHART_CACHE"
KEEP_CHARTS = 48  # about four memos' worth per evaluation for a dozen evaluations, ~10 MB
_SIZE_KEY = "clusterbid-figure-inches"


def cache_folder() -> Path | None:
    setting = os.environ.get(CACHE_ENV, "")
    if setting.lower() == "off":
        return None
    if setting:
        return Path(setting)
    from clusterbid.frozen_runtime import user_cache_root

    return user_cache_root() / "memo-charts"


@functools.cache
def _code_fingerprint() -> str | None:
    """The chart code itself: an edited chart never reuses pixels drawn by the old code. None
    (nothing kept) when neither the sources nor the frozen build they came in can be named."""
    import sys

    charts = Path(__file__).resolve().parents[1] / "charts"
    here = Path(__file__).parent
    sources = sorted(
        [*charts.glob("*.py"), *here.glob("chart_drawing.py"), *here.glob("charts_section.py")]
    )
    digest = hashlib.sha256()
    try:
        for path in sources:
            digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
        if not sources:  # a frozen bundle keeps bytecode only: key on the build instead
            if not getattr(sys, "frozen", False):
                return None
            built = Path(sys.executable).stat()
            digest.update(f"{sys.executable}|{built.st_size}|{built.st_mtime_ns}".encode())
        for package in ("matplotlib", "pillow"):
            digest.update(f"{package}={metadata.version(package)};".encode())
    except (OSError, metadata.PackageNotFoundError):
        return None
    return digest.hexdigest()


def chart_key(*drawn_from: object) -> str | None:
    """SHA-256 of what a chart is drawn from; None when a repr hides its data (an object
    address), since two different inputs could then share a key."""
    return chart_keys([drawn_from[:1]], *drawn_from[1:])[0]


def chart_keys(own: list[tuple[object, ...]], *shared: object) -> list[str | None]:
    """chart_key(*own[i], *shared) for each chart, with the shared inputs (the scorecard and its
    analyses) written out once: their repr at 500 bids took a second per chart."""
    code = _code_fingerprint()
    shared_text = ", ".join(map(repr, shared))
    keys: list[str | None] = []
    for first in own:
        # The text repr() gives the whole tuple, so the keys are those kept before.
        text = "(" + ", ".join([*map(repr, first), shared_text] if shared else map(repr, first))
        text += ",)" if len(first) + len(shared) == 1 else ")"
        unknowable = code is None or " at 0x" in text
        keys.append(None if unknowable else hashlib.sha256(f"{code}\n{text}".encode()).hexdigest())
    return keys


def load(key: str | None):
    """(RGB pixels, figure size in inches) kept under `key`, or None."""
    folder = cache_folder()
    if key is None or folder is None:
        return None
    from PIL import Image

    path = folder / f"{key}.png"
    try:
        with Image.open(path) as image:
            width_in, height_in = (float(v) for v in image.text[_SIZE_KEY].split())
            pixels = image.convert("RGB")
        os.utime(path)  # recently used charts are the ones kept
    except (OSError, KeyError, ValueError, SyntaxError):  # absent, damaged or from another build
        return None
    return pixels, (width_in, height_in)


def store(key: str | None, pixels, size_inches: tuple[float, float]) -> None:
    folder = cache_folder()
    if key is None or folder is None:
        return
    from PIL.PngImagePlugin import PngInfo

    info = PngInfo()
    info.add_text(_SIZE_KEY, " ".join(repr(float(v)) for v in size_inches))
    target = folder / f"{key}.png"
    partial = folder / f"{key}.{os.getpid()}.part"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        pixels.save(partial, format="PNG", pnginfo=info, compress_level=1)
        partial.replace(target)  # whole files only: another export may be reading this folder
        _prune(folder)
    except OSError:
        partial.unlink(missing_ok=True)


def _prune(folder: Path) -> None:
    for pattern in ("*.png", "*.memo"):  # .memo: the chart index an earlier version noted
        kept = sorted(folder.glob(pattern), key=lambda p: p.stat().st_mtime, reverse=True)
        for old in kept[KEEP_CHARTS:]:
            old.unlink(missing_ok=True)
