"""Which system libraries Qt's X11 (xcb) platform plugin cannot load here, and the command that
installs them. Qt itself only aborts with "could not load the Qt platform plugin"; reading the
plugin's own links with ldd names exactly what is missing, whatever the Qt version needs."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from importlib.util import find_spec
from pathlib import Path

NOT_FOUND = re.compile(r"^\s*(\S+\.so[.\d]*)\s+=>\s+not found", re.MULTILINE)


def debian_package(soname: str) -> str:
    """Debian's library package name for a soname (policy 8.1): libfoo.so.N -> libfooN, and a
    dash before N when the name ends in a digit (libxkbcommon-x11.so.0 -> libxkbcommon-x11-0)."""
    base, _, version = soname.partition(".so")
    version = version.lstrip(".").split(".")[0]
    base = base.lower()
    return f"{base}-{version}" if base[-1:].isdigit() and version else f"{base}{version}"


def missing_sonames(ldd_output: str) -> list[str]:
    """Sonames ldd reports as not found, in order, each once."""
    return list(dict.fromkeys(NOT_FOUND.findall(ldd_output)))


def _xcb_plugin_files() -> list[Path]:
    spec = find_spec("PySide6")
    if spec is None or not spec.submodule_search_locations:
        return []
    qt = Path(next(iter(spec.submodule_search_locations))) / "Qt"
    return [
        p
        for p in (
            qt / "plugins" / "platforms" / "libqxcb.so",
            *sorted((qt / "lib").glob("libQt6XcbQpa.so*")),
        )
        if p.exists()
    ][:2]


def missing_x11_libraries() -> list[str]:
    """Sonames the xcb plugin needs and this machine lacks ([] off Linux/X11, or when it cannot tell)."""
    if (
        not sys.platform.startswith("linux")
        or os.environ.get("QT_QPA_PLATFORM")
        or not os.environ.get("DISPLAY")
    ):
        return []
    ldd = shutil.which("ldd")
    if ldd is None:
        return []
    found: list[str] = []
    for library in _xcb_plugin_files():
        try:
            run = subprocess.run([ldd, str(library)], capture_output=True, text=True, timeout=10)
        except (OSError, subprocess.TimeoutExpired):
            continue
        found += missing_sonames(run.stdout)
    return list(dict.fromkeys(found))


def install_hint(sonames: list[str]) -> str:
    packages = " ".join(dict.fromkeys(debian_package(name) for name in sonames))
    return f"On Debian/Ubuntu: sudo apt install {packages}"
