"""Money as every view prints it: floats leave the numpy model rounded half-up to the cent."""

from __future__ import annotations

import functools
from decimal import ROUND_HALF_UP, Decimal

CENT = Decimal("0.01")
SYMBOLS = {"USD": "$", "EUR": "€", "GBP": "£"}


def money(amount: float) -> Decimal:
    """Floats leave the numpy model here, rounded half-up to the cent."""
    return Decimal(repr(amount)).quantize(CENT, rounding=ROUND_HALF_UP)


def format_money(amount: float, currency: str, cents: bool = False) -> str:
    return _formatted(repr(amount), currency, cents)


# The comparison formats every figure of every bid again at each edit (37,000 at 500 bids, a
# quarter of the worker's CPU), nearly all as they were. Kept by the figure's repr, never by its
# value: a cache keyed on the float would key 1 and 1.0 (and -0.0 and 0.0) together.
@functools.lru_cache(maxsize=1 << 15)
def _formatted(amount_repr: str, currency: str, cents: bool) -> str:
    value = Decimal(amount_repr).quantize(CENT, rounding=ROUND_HALF_UP)
    if not cents:
        value = value.quantize(Decimal(1), rounding=ROUND_HALF_UP)
    # The sign goes before the symbol ("-$1,234", as accounts print it), and a figure that rounds
    # to nothing has none: a credit of -0.004 is "$0.00", never "$-0.00".
    sign = "-" if value.is_signed() and not value.is_zero() else ""  # never orders a NaN
    text = f"{abs(value):,.2f}" if cents else f"{abs(value):,}"
    symbol = SYMBOLS.get(currency)
    return f"{sign}{symbol}{text}" if symbol else f"{sign}{text} {currency}"
