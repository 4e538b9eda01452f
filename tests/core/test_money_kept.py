"""format_money keeps what it printed (the comparison prints 37,000 figures per edit at 500 bids,
nearly all as before); a kept text is keyed by the figure's repr, so figures that compare equal
but print differently never borrow each other's text."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal

from clusterbid.core import money


def _by_hand(amount: float) -> str:
    value = Decimal(repr(amount)).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
    return f"${value:,.2f}"


def test_equal_figures_that_print_differently_keep_their_own_text():
    for first, second in ((0.0, -0.0), (-0.0, 0.0)):
        money._formatted.cache_clear()
        assert money.format_money(first, "USD", cents=True) == _by_hand(first)
        assert money.format_money(second, "USD", cents=True) == _by_hand(second)
    assert _by_hand(-0.0) != _by_hand(0.0)  # the case is real: "$-0.00" and "$0.00"


def test_a_kept_text_is_the_text_computed_again():
    figures = [1_613_345.235, 2.005, 0.125, 1e9 + 0.5, 3.0]
    first = [money.format_money(f, "EUR", cents=True) for f in figures]
    assert money._formatted.cache_info().currsize > 0
    again = [money.format_money(f, "EUR", cents=True) for f in figures]
    assert first == again == ["€1,613,345.24", "€2.01", "€0.13", "€1,000,000,000.50", "€3.00"]
    assert money.format_money(2.005, "CHF") == "2 CHF"  # whole units: 2.005 rounds to 2
