"""The first start fits the screen (issue 38 item 4): on a 1366x768 laptop the main window, its
frame and its status bar lie within the screen (it was 32 px taller, the status bar below the edge).
The window is opened in a child process whose only screen is 1366x768, as a first start opens it:
no saved geometry, the demo evaluation."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from PySide6.QtCore import QRect, QSize
from tests.conftest import REPO, offscreen_screen

from clusterbid.gui.screen_fit import fitted_size

FIRST_START = """
import json, sys
from pathlib import Path
from PySide6.QtCore import QPoint, QRect
from PySide6.QtWidgets import QApplication
app = QApplication([sys.argv[0], "-platform", sys.argv[1]])
from clusterbid.gui.app import open_main_window
from clusterbid.gui.settings import AppSettings
window = open_main_window(None, AppSettings.in_folder(Path(sys.argv[2])))
window.show()
for _ in range(20):
    app.processEvents()
bar = window.statusBar()
print(json.dumps({
    "screen": app.primaryScreen().availableGeometry().getRect(),
    "frame": window.frameGeometry().getRect(),
    "status": QRect(bar.mapToGlobal(QPoint(0, 0)), bar.size()).getRect(),
    "status_visible": bar.isVisible(),
}))
window.close()
"""


def _inside(outer: list[int], inner: list[int]) -> bool:
    return QRect(*outer).contains(QRect(*inner))


def test_the_first_start_lies_within_a_1366x768_screen_status_bar_included(tmp_path):
    env = {**os.environ, "PYTHONPATH": str(REPO / "desktop"), "HOME": str(tmp_path)}
    result = subprocess.run(
        [
            sys.executable,
            "-c",
            FIRST_START,
            offscreen_screen(tmp_path, 1366, 768),
            str(tmp_path / "profile"),
        ],
        capture_output=True,
        text=True,
        env=env,
        check=True,
    )
    shown = json.loads(result.stdout.strip().splitlines()[-1])
    assert shown["screen"] == [0, 0, 1366, 768]
    assert _inside(shown["screen"], shown["frame"]), shown
    assert shown["status_visible"] and _inside(shown["screen"], shown["status"]), shown


def test_a_window_is_sized_within_the_screen_less_its_frame():
    laptop = QRect(0, 0, 1366, 768)
    # 780 px wanted, 768 - 40 (title bar and borders) available: 728; the width fits as asked.
    assert fitted_size(QSize(1340, 780), laptop) == QSize(1340, 728)
    assert fitted_size(QSize(1340, 780), QRect(0, 0, 1920, 1050)) == QSize(1340, 780)
    assert fitted_size(QSize(1340, 780), QRect(0, 0, 1280, 720), QSize(8, 30)) == QSize(1272, 690)
