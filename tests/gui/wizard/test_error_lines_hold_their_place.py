"""Issue 38 item 5: an error line appearing beneath a field does not push the fields below it
down, so the officer's next click lands on the field they aimed at."""

from __future__ import annotations

import pytest
from tests.gui.wizard.conftest import error_text, field, type_into

pytestmark = pytest.mark.timeout(60)


def _top_in_wizard(wizard, widget) -> int:
    return widget.mapTo(wizard, widget.rect().topLeft()).y()


def test_a_one_line_error_moves_no_field_below_it(qtbot, open_wizard, evaluation):
    wizard = open_wizard(evaluation.bids[0], duplicate=True)
    provider = field(wizard, "quote", "provider")
    below = [
        field(wizard, "id").widget,
        field(wizard, "quote", "quoted_on").widget,
        field(wizard, "quote", "valid_until").widget,
    ]
    # the provider is typed in first on the page; the fields after it are the ones that jumped
    below = [
        w for w in below if _top_in_wizard(wizard, w) > _top_in_wizard(wizard, provider.widget)
    ]
    assert below, "some field sits below the provider's"
    qtbot.wait(10)
    before = [_top_in_wizard(wizard, w) for w in below]
    type_into(qtbot, provider.widget, "")
    qtbot.waitUntil(lambda: error_text(wizard, "quote", "provider") != "")
    qtbot.wait(10)  # let the page's layout run, as it does between an officer's keystrokes
    assert provider.error.isVisibleTo(wizard)
    assert provider.error.height() <= provider.error.fontMetrics().lineSpacing() * 1.5  # one line
    assert [_top_in_wizard(wizard, w) for w in below] == before
    # an empty error line still holds its place: it is there before any error, one line high
    other = field(wizard, "quote", "valid_until").error
    assert not other.isVisibleTo(wizard)
    assert other.sizeHint().height() >= other.fontMetrics().lineSpacing()
