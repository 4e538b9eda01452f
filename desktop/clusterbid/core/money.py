"""Money as every view prints it: floats leave the numpy model rounded half-up to the cent."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal

CENT = Decimal("0.01")
SYMBOLS = {"USD": "$", "EUR": "€", "GBP": "£"}


def money(amount: float) -> Decimal:
    """Floats leave the numpy model here, rounded half-up to the cent."""
    return Decimal(repr(amount)).quantize(CENT, rounding=ROUND_HALF_UP)


def format_money(amount: float, currency: str, cents: bool = False) -> str:
    value = money(amount)
    text = f"{value:,.2f}" if cents else f"{value.quantize(Decimal(1), rounding=ROUND_HALF_UP):,}"
    symbol = SYMBOLS.get(currency)
    return f"{symbol}{text}" if symbol else f"{text} {currency}"
