"""Drop the Qt pieces a laptop app never loads, and the shared libraries only those pieces need.

PySide6's PyInstaller hook collects every plugin of the Qt modules in use, including the ones for
embedded screens and the GTK3 theme (which drags in cairo, pango and gdk-pixbuf). The spec calls
`trim` on the Analysis lists; a library is dropped only when no file that stays links to it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import PurePosixPath

QT = "PySide6/Qt/"
UNUSED_QT_FILES = (
    QT + "translations/",  # the app is English-only and installs no QTranslator
    QT + "plugins/egldeviceintegrations/",  # kiosk/embedded displays without a window system
    QT + "plugins/generic/",  # raw evdev/TUIO input for those displays (TUIO needs QtNetwork)
    QT + "plugins/platforms/libqeglfs",
    QT + "plugins/platforms/libqlinuxfb",
    QT + "plugins/platforms/libqminimalegl",
    QT + "plugins/platforms/libqvkkhrdisplay",
    QT + "plugins/platforms/libqvnc",
    # GTK3 look and native GNOME dialogs; the XDG portal theme stays and gives native dialogs.
    QT + "plugins/platformthemes/libqgtk3",
)
# Kept on purpose: platforms xcb, wayland, offscreen (smoke test), minimal; input contexts
# (compose and ibus, for typing accented names); image formats; the SVG icon engine.

Entry = tuple[str, str, str]  # (name in the bundle, source path or link target, type code)


def is_unused(name: str) -> bool:
    return name.replace("\\", "/").startswith(UNUSED_QT_FILES)


def linked_names(path: str) -> set[str]:
    """File names of the shared libraries `path` links to (not what it may dlopen)."""
    from PyInstaller.depend.bindepend import get_imports

    return {PurePosixPath(name.replace("\\", "/")).name for name, _ in get_imports(path)}


def _closure(
    roots: Iterable[Entry], by_name: dict[str, list[Entry]], links: Callable[[str], set[str]]
) -> set[str]:
    """Bundle names of every library reachable from `roots` through link-time dependencies."""
    seen: set[str] = set()
    stack = list(roots)
    while stack:
        name, source, _ = stack.pop()
        for linked in links(source):
            for entry in by_name.get(linked, []):
                if entry[0] not in seen:
                    seen.add(entry[0])
                    stack.append(entry)
    return seen


def trim(
    binaries: list[Entry], datas: list[Entry], links: Callable[[str], set[str]] = linked_names
) -> tuple[list[Entry], list[Entry], list[str]]:
    """The binaries and datas without the unused Qt files and libraries only they link to."""
    files = [entry for entry in binaries if entry[2] != "SYMLINK"]
    by_name: dict[str, list[Entry]] = {}
    for entry in files:
        by_name.setdefault(PurePosixPath(entry[0].replace("\\", "/")).name, []).append(entry)
    dropped = [entry for entry in files if is_unused(entry[0])]
    candidates = _closure(dropped, by_name, links)
    roots = [entry for entry in files if not is_unused(entry[0]) and entry[0] not in candidates]
    needed = _closure(roots, by_name, links)
    removed = {entry[0] for entry in dropped} | (candidates - needed)
    kept_binaries = [
        entry
        for entry in binaries
        if entry[0] not in removed and not (entry[2] == "SYMLINK" and entry[1] in removed)
    ]
    kept_datas = [entry for entry in datas if not is_unused(entry[0])]
    removed_names = sorted(removed) + sorted(entry[0] for entry in datas if is_unused(entry[0]))
    return kept_binaries, kept_datas, removed_names
