"""A blank numeric field shows "—"; digits typed after clicking into it replace the dash (they were
dropped, and "—" stayed: issue 38 item 5)."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from tests.gui.wizard.conftest import field

from clusterbid.gui.wizard.field_rules import BLANK, BLANK_TEXT

pytestmark = pytest.mark.timeout(60)


def _to_page(wizard, title: str):
    while wizard.currentPage().title() != title:
        wizard.next()
    return wizard.currentPage()


@pytest.mark.parametrize(
    "path, typed, expected",
    [
        (("capacity", "gpus_offered"), "512", 512),  # a required whole number
        (
            ("reliability", "failures_per_1000_gpu_days"),
            "0.47",
            0.47,
        ),  # an optional figure, not stated
    ],
)
def test_digits_typed_after_a_click_replace_the_dash(qtbot, open_wizard, path, typed, expected):
    wizard = open_wizard()
    _to_page(wizard, "Capacity" if path[0] == "capacity" else "Reliability")
    binding = field(wizard, *path)
    spin = binding.widget
    assert spin.text() == BLANK_TEXT
    # What a click into the field does: focus for the mouse (nothing selected, unlike Tab), the
    # cursor where it landed, beside the dash.
    spin.setFocus(Qt.FocusReason.MouseFocusReason)
    spin.lineEdit().deselect()
    spin.lineEdit().end(False)
    assert not spin.lineEdit().hasSelectedText()
    qtbot.keyClicks(spin, typed)
    assert spin.text() == typed
    assert binding.read() == pytest.approx(expected)


def test_a_filled_field_keeps_ordinary_editing(qtbot, open_wizard, evaluation):
    wizard = open_wizard(evaluation.bids[0])  # Northwind offers 576 GPUs (demo seed)
    _to_page(wizard, "Capacity")
    spin = field(wizard, "capacity", "gpus_offered").widget
    spin.lineEdit().setFocus()
    spin.lineEdit().end(False)
    qtbot.keyClick(spin, Qt.Key.Key_Backspace)
    qtbot.keyClicks(spin, "0")
    assert spin.value() == 570  # typed after the digits, not instead of them


def test_a_refused_minus_does_not_let_the_next_digit_in(qtbot, open_wizard):
    wizard = open_wizard()
    _to_page(wizard, "Contract and billing")
    price = field(wizard, "terms", "price_per_gpu_hour")
    spin = price.widget
    spin.setFocus(Qt.FocusReason.MouseFocusReason)
    spin.lineEdit().deselect()
    spin.lineEdit().end(False)
    qtbot.keyClicks(spin, "-5")
    assert price.read() is BLANK  # -5 is refused, never taken as 5
    assert "cannot be negative" in price.error.text()
