"""The app's start-up check names the exact Debian packages Qt's xcb plugin lacks."""

from __future__ import annotations

from clusterbid.display_check import debian_package, install_hint, missing_sonames

# What ldd printed for PySide6 6.x's libqxcb.so on a minimal Debian 12 (the shape of ldd's output:
# "soname => not found" for each library the loader cannot resolve).
LDD = """\
\tlinux-vdso.so.1 (0x00007ffd5b1f5000)
\tlibQt6XcbQpa.so.6 => /venv/PySide6/Qt/plugins/platforms/../../lib/libQt6XcbQpa.so.6 (0x00007f2c0f000000)
\tlibxcb-cursor.so.0 => not found
\tlibxcb-icccm.so.4 => not found
\tlibxcb-keysyms.so.1 => not found
\tlibxkbcommon-x11.so.0 => not found
\tlibEGL.so.1 => not found
\tlibxcb-icccm.so.4 => not found
\tlibc.so.6 => /lib/x86_64-linux-gnu/libc.so.6 (0x00007f2c0ee1f000)
"""


def test_not_found_lines_become_sonames_once_each():
    assert missing_sonames(LDD) == [
        "libxcb-cursor.so.0",
        "libxcb-icccm.so.4",
        "libxcb-keysyms.so.1",
        "libxkbcommon-x11.so.0",
        "libEGL.so.1",
    ]


def test_sonames_map_to_debian_package_names():
    # The Debian packages that ship these sonames (packages.debian.org, bookworm).
    assert debian_package("libxcb-cursor.so.0") == "libxcb-cursor0"
    assert debian_package("libxcb-icccm.so.4") == "libxcb-icccm4"
    assert debian_package("libxcb-keysyms.so.1") == "libxcb-keysyms1"
    assert debian_package("libxkbcommon-x11.so.0") == "libxkbcommon-x11-0"
    assert debian_package("libEGL.so.1") == "libegl1"
    assert debian_package("libdbus-1.so.3") == "libdbus-1-3"
    assert debian_package("libX11-xcb.so.1") == "libx11-xcb1"
    assert install_hint(missing_sonames(LDD)) == (
        "On Debian/Ubuntu: sudo apt install libxcb-cursor0 libxcb-icccm4 libxcb-keysyms1 "
        "libxkbcommon-x11-0 libegl1"
    )
