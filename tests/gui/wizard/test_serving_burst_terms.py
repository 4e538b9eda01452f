"""Issue 37, item 2: the Contract page's "Serving: reserved base and burst" group enters a bid's
on-demand burst price and how often its reserved base may change; the fields hold only what the
bid model accepts, and blank stays "no burst" and "fixed for the term"."""

from __future__ import annotations

from decimal import Decimal

import pytest
from tests.gui.wizard.conftest import error_text, field, next_enabled, type_into

pytestmark = pytest.mark.timeout(60)


def _to_contract(wizard) -> None:
    while wizard.currentId() < 5:  # contract and billing
        wizard.next()


def test_burst_price_and_resize_months_are_typed_within_what_the_bid_model_accepts(
    qtbot, open_wizard, evaluation
):
    wizard = open_wizard(evaluation.bids[0], duplicate=True)
    _to_contract(wizard)
    assert wizard.result_bid().terms.burst_price_per_gpu_hour is None
    assert wizard.result_bid().terms.reserved_resize_months is None
    burst = field(wizard, "terms", "burst_price_per_gpu_hour")
    resize = field(wizard, "terms", "reserved_resize_months")
    type_into(qtbot, burst.widget, "4.25")
    type_into(qtbot, resize.widget, "3")
    terms = wizard.result_bid().terms
    assert terms.burst_price_per_gpu_hour == Decimal("4.25")
    assert terms.reserved_resize_months == 3
    assert next_enabled(wizard)
    # The fields hold only what the bid model accepts: at most 120 months (a third digit of 200
    # is refused as typed), and a burst price of 0 is no burst (blank), never a free GPU-hour.
    type_into(qtbot, resize.widget, "200")
    assert wizard.result_bid().terms.reserved_resize_months == 20
    type_into(qtbot, burst.widget, "0")
    assert wizard.result_bid().terms.burst_price_per_gpu_hour is None
    assert error_text(wizard, "terms", "burst_price_per_gpu_hour") == ""
    assert next_enabled(wizard)
