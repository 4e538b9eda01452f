"""The wizard forgives: every problem at once with a summary, whole error text, a refused negative
figure explained, and Cancel asks before throwing typed values away."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from tests.gui.wizard.conftest import error_text, field, type_into

from clusterbid.gui import dialogs

pytestmark = pytest.mark.timeout(60)


def _to_page(wizard, index: int) -> None:
    while wizard.currentId() < index:
        wizard.next()


def test_a_negative_price_is_refused_with_the_reason_beside_the_field(
    qtbot, open_wizard, evaluation
):
    wizard = open_wizard(evaluation.bids[0], duplicate=True)
    _to_page(wizard, 5)  # contract and billing
    price = field(wizard, "terms", "price_per_gpu_hour")
    type_into(qtbot, price.widget, "")  # blank first, as a new bid starts
    type_into(qtbot, price.widget, "-5")
    text = error_text(wizard, "terms", "price_per_gpu_hour")
    assert "cannot be negative" in text and "Price per GPU-hour" in text
    assert "Required: enter a value." in text  # the field is still blank, and says so too
    assert "must be more than 0" in text  # the model's rule: price > 0
    label = price.error
    qtbot.wait(20)
    assert label.height() >= label.heightForWidth(label.width())  # two messages, none cut off
    type_into(qtbot, price.widget, "2.5")  # an accepted value clears the refusal
    assert error_text(wizard, "terms", "price_per_gpu_hour") == ""
    assert price.read() == "2.5" or float(price.read()) == 2.5


def test_every_problem_of_a_page_shows_at_once_with_a_summary(qtbot, open_wizard, evaluation):
    wizard = open_wizard(evaluation.bids[0], duplicate=True)
    type_into(qtbot, field(wizard, "quote", "provider").widget, "")
    type_into(qtbot, field(wizard, "id").widget, "has space")
    type_into(qtbot, field(wizard, "quote", "valid_until").widget, "31/12/2026")
    for path in (("quote", "provider"), ("id",), ("quote", "valid_until")):
        assert error_text(wizard, *path), path  # each beside its own field, all at once
    summary = wizard.quote_page.summary
    assert summary.isVisibleTo(wizard)
    text = summary.text()
    assert text.startswith("3 problems to fix on this page:")
    for title in (
        field(wizard, "quote", "provider").title,
        field(wizard, "id").title,
        field(wizard, "quote", "valid_until").title,
    ):
        assert title in text


def test_error_text_is_not_cut_off_in_a_short_wizard(qtbot, open_wizard, evaluation):
    wizard = open_wizard(evaluation.bids[0], duplicate=True)
    wizard.resize(700, 420)  # shorter than the page's fields and messages
    type_into(qtbot, field(wizard, "quote", "provider").widget, "")
    type_into(qtbot, field(wizard, "id").widget, "has space")
    type_into(qtbot, field(wizard, "quote", "valid_until").widget, "31/12/2026")
    qtbot.wait(50)
    for path in (("quote", "provider"), ("id",), ("quote", "valid_until")):
        label = field(wizard, *path).error
        # Laid out at least as tall as its wrapped text needs (the page scrolls instead).
        assert label.height() >= label.heightForWidth(label.width()), path


def test_cancel_with_typed_values_asks_first_and_no_keeps_the_wizard(
    qtbot, open_wizard, monkeypatch
):
    asked = []
    answer = {"yes": False}
    monkeypatch.setattr(
        dialogs, "confirm", lambda _p, title, text: asked.append(title) or answer["yes"]
    )
    untouched = open_wizard()
    untouched.reject()  # nothing typed: nothing to lose, no question
    assert asked == [] and not untouched.isVisible()

    wizard = open_wizard()
    type_into(qtbot, field(wizard, "quote", "provider").widget, "Typed Cloud")
    qtbot.keyClick(wizard, Qt.Key.Key_Escape)
    assert asked == ["Discard this bid?"]
    assert wizard.isVisible() and field(wizard, "quote", "provider").read() == "Typed Cloud"
    answer["yes"] = True
    wizard.close()
    assert asked == ["Discard this bid?"] * 2 and not wizard.isVisible()
