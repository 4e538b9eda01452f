"""A window's first size, within the screen it opens on: a 1366x768 laptop showed the first start
32 px taller than the screen, the status bar below its edge (issue 38 item 4).

The window manager's frame is not known until the window is shown, so the size leaves room for a
usual title bar and border; `keep_on_screen` corrects it once the frame is known."""

from __future__ import annotations

from PySide6.QtCore import QRect, QSize
from PySide6.QtWidgets import QApplication, QWidget

# The frame a desktop's window manager adds around a window: a title bar and thin borders (openbox
# 23 px, GNOME 37 px, Windows 31 px of title bar; 1-8 px borders).
FRAME_ALLOWANCE = QSize(16, 40)


def fitted_size(wanted: QSize, available: QRect, frame: QSize = FRAME_ALLOWANCE) -> QSize:
    """`wanted`, made no larger than the screen's available area less the frame."""
    return QSize(
        min(wanted.width(), available.width() - frame.width()),
        min(wanted.height(), available.height() - frame.height()),
    )


def _available(window: QWidget) -> QRect | None:
    screen = window.screen() or QApplication.primaryScreen()
    return None if screen is None else screen.availableGeometry()


def fit_on_screen(window: QWidget, wanted: QSize) -> None:
    """Size a window that has no saved geometry to `wanted`, or less on a smaller screen."""
    available = _available(window)
    window.resize(wanted if available is None else fitted_size(wanted, available))


def keep_on_screen(window: QWidget) -> None:
    """Once shown (the frame known): shrink and move the window so all of it, frame and status bar
    included, lies within the screen's available area."""
    available = _available(window)
    if available is None or window.isMaximized() or window.isFullScreen():
        return
    outer, inner = window.frameGeometry(), window.geometry()
    frame = QSize(outer.width() - inner.width(), outer.height() - inner.height())
    size = fitted_size(inner.size(), available, frame)
    if size != inner.size():
        window.resize(size)
    outer = window.frameGeometry()
    left = min(max(outer.left(), available.left()), available.right() + 1 - outer.width())
    top = min(max(outer.top(), available.top()), available.bottom() + 1 - outer.height())
    if (left, top) != (outer.left(), outer.top()):
        window.move(left, top)
