"""The bundle trimmer drops unused Qt files and only the libraries nothing else links to.

The link graph is written out by hand below, so the expected result is read straight off it.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

TRIM_PY = Path(__file__).resolve().parents[2] / "packaging" / "pyinstaller" / "trim.py"
spec = importlib.util.spec_from_file_location("packaging_trim", TRIM_PY)
trim_module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(trim_module)

GTK = "PySide6/Qt/plugins/platformthemes/libqgtk3.so"
XCB = "PySide6/Qt/plugins/platforms/libqxcb.so"
# Who links to whom (by file name), as the dynamic linker sees it.
LINKS = {
    "src/libqgtk3.so": {"libcairo.so.2", "libglib-2.0.so.0"},
    "src/libcairo.so.2": {"libpixman-1.so.0", "libglib-2.0.so.0"},
    "src/libqxcb.so": {"libQt6Gui.so.6"},
    "src/libQt6Gui.so.6": {"libglib-2.0.so.0"},
}
BINARIES = [
    (GTK, "src/libqgtk3.so", "BINARY"),
    (XCB, "src/libqxcb.so", "BINARY"),
    ("PySide6/Qt/lib/libQt6Gui.so.6", "src/libQt6Gui.so.6", "BINARY"),
    ("libcairo.so.2", "src/libcairo.so.2", "BINARY"),
    ("libpixman-1.so.0", "src/libpixman-1.so.0", "BINARY"),
    ("libglib-2.0.so.0", "src/libglib-2.0.so.0", "BINARY"),
    ("libcairo-link.so", "libcairo.so.2", "SYMLINK"),
]
DATAS = [
    ("PySide6/Qt/translations/qtbase_de.qm", "src/qtbase_de.qm", "DATA"),
    ("resources/catalog/gpus.toml", "src/gpus.toml", "DATA"),
]


def test_gtk_theme_goes_with_cairo_and_pixman_but_glib_stays_for_qtgui():
    binaries, datas, removed = trim_module.trim(
        BINARIES, DATAS, links=lambda path: LINKS.get(path, set())
    )
    kept = {entry[0] for entry in binaries}
    # libqgtk3 -> cairo -> pixman only reach through the GTK theme; QtGui still needs glib.
    assert kept == {XCB, "PySide6/Qt/lib/libQt6Gui.so.6", "libglib-2.0.so.0"}
    assert [entry[0] for entry in datas] == ["resources/catalog/gpus.toml"]
    assert removed == sorted([GTK, "libcairo.so.2", "libpixman-1.so.0"]) + [
        "PySide6/Qt/translations/qtbase_de.qm"
    ]


def test_a_library_a_kept_python_extension_links_to_is_kept():
    extension = ("PIL/_imaging.so", "src/_imaging.so", "EXTENSION")
    links = {**LINKS, "src/_imaging.so": {"libpixman-1.so.0"}}
    binaries, _, _ = trim_module.trim(
        [*BINARIES, extension], DATAS, links=lambda path: links.get(path, set())
    )
    kept = {entry[0] for entry in binaries}
    assert "libpixman-1.so.0" in kept and "libcairo.so.2" not in kept


def test_windows_style_names_are_matched_too():
    assert trim_module.is_unused("PySide6\\Qt\\translations\\qt_fr.qm")
    assert not trim_module.is_unused("PySide6\\Qt\\plugins\\platforms\\qwindows.dll")
