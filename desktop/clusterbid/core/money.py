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
# value: -0.0 equals 0.0 but prints "-0.00", and a cache keyed on the float would print whichever
# came first.
@functools.lru_cache(maxsize=1 << 15)
def _formatted(amount_repr: str, currency: str, cents: bool) -> str:
    value = Decimal(amount_repr).quantize(CENT, rounding=ROUND_HALF_UP)
    text = f"{value:,.2f}" if cents else f"{value.quantize(Decimal(1), rounding=ROUND_HALF_UP):,}"
    symbol = SYMBOLS.get(currency)
    return f"{symbol}{text}" if symbol else f"{text} {currency}"
