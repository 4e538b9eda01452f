"""format_money keeps what it printed (the comparison prints 37,000 figures per edit at 500 bids,
nearly all as before); a kept text is keyed by the figure's repr, so figures that compare equal
never borrow each other's text. Signs print as accounts print them: before the symbol, and none
on a figure that rounds to nothing."""

from __future__ import annotations

from clusterbid.core import money


def test_equal_figures_print_alike_and_zero_has_no_sign():
    for first, second in ((0.0, -0.0), (-0.0, 0.0), (-0.004, 0.004)):
        money._formatted.cache_clear()
        assert money.format_money(first, "USD", cents=True) == "$0.00"
        assert money.format_money(second, "USD", cents=True) == "$0.00"
    assert money.format_money(-0.4, "USD") == "$0"  # whole units: -0.4 rounds to nothing
    assert money.format_money(-0.5, "USD") == "-$1"  # half-up rounds away from zero


def test_a_negative_figure_puts_its_sign_before_the_symbol():
    assert money.format_money(-1234.5, "USD") == "-$1,235"
    assert money.format_money(-1234.5, "GBP", cents=True) == "-£1,234.50"
    assert money.format_money(-7.0, "CHF") == "-7 CHF"


def test_a_kept_text_is_the_text_computed_again():
    figures = [1_613_345.235, 2.005, 0.125, 1e9 + 0.5, 3.0]
    first = [money.format_money(f, "EUR", cents=True) for f in figures]
    assert money._formatted.cache_info().currsize > 0
    again = [money.format_money(f, "EUR", cents=True) for f in figures]
    assert first == again == ["€1,613,345.24", "€2.01", "€0.13", "€1,000,000,000.50", "€3.00"]
    assert money.format_money(2.005, "CHF") == "2 CHF"  # whole units: 2.005 rounds to 2


def test_a_figure_that_is_not_a_number_prints_as_one_rather_than_failing():
    assert money.format_money(float("nan"), "USD", cents=True) == "$NaN"
