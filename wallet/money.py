"""Coin amounts: integer minor units (1 coin = 100), formatted and parsed without floats."""

from __future__ import annotations

import re

MINOR_PER_COIN = 100
_COINS = re.compile(r"^\s*(?P<sign>[+-]?)(?P<whole>\d{1,15})(?:\.(?P<frac>\d{1,2}))?\s*$")


def format_coins(amount: int, *, grouping: bool = False) -> str:
    """Minor units as coins with two decimals.

    >>> format_coins(1250), format_coins(-50), format_coins(500_000, grouping=True)
    ('12.50', '-0.50', '5,000.00')
    """
    sign = "-" if amount < 0 else ""
    whole, frac = divmod(abs(int(amount)), MINOR_PER_COIN)
    whole_text = f"{whole:,}" if grouping else str(whole)
    return f"{sign}{whole_text}.{frac:02d}"


def parse_coins(text: str) -> int:
    """Coins written with at most two decimals, as minor units.

    >>> parse_coins("12.5"), parse_coins("-0.05"), parse_coins("7")
    (1250, -5, 700)
    """
    match = _COINS.match(text)
    if match is None:
        raise ValueError(f"not a coin amount: {text!r} (use digits with at most two decimals, e.g. 12.50)")
    minor = int(match["whole"]) * MINOR_PER_COIN + int((match["frac"] or "0").ljust(2, "0"))
    return -minor if match["sign"] == "-" else minor
