"""The Qt binding must not take references it does not own.

PySide6 6.12.0 on Python 3.11 took one reference from None at each call of a Qt method returning
void (setEnabled, setCurrentIndex...): after some tens of thousands of calls None was freed and
the app aborted with "Fatal Python error: none_dealloc", in the middle of an officer's session.
pyproject.toml leaves that release out; this test keeps any release that does it out too.
"""

from __future__ import annotations

import sys

import pytest
from PySide6.QtWidgets import QComboBox

pytestmark = pytest.mark.skipif(
    sys.version_info >= (3, 12),
    reason="None is immortal from Python 3.12 (PEP 683): no count to lose",
)


def test_void_qt_calls_leave_nones_reference_count_alone(qtbot):
    combo = QComboBox()
    qtbot.addWidget(combo)
    combo.addItems(["stated by the provider", "buyer's assumption"])
    before = sys.getrefcount(None)
    for i in range(2_000):
        combo.setEnabled(i % 2 == 0)
        combo.setCurrentIndex(i % 2)
    # A sound binding leaves the count where it was (give or take a few references held elsewhere);
    # the faulty one drops it by 4,000 here.
    assert abs(sys.getrefcount(None) - before) < 100
