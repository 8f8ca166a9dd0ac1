"""The largest whole numbers a request may name, so input past a column's range is refused as
invalid instead of failing in the database.

Ids are ``bigint`` in PostgreSQL and 64-bit ``INTEGER`` in SQLite: one past
:data:`ID_MAX` overflows both. Coin amounts are bounded far below that, at
:data:`AMOUNT_MAX` minor units (the live protocol's ``MAX_AMOUNT``, games/protocol.py), so a
sum of many of them still fits a ``bigint``.
"""

from __future__ import annotations

ID_MAX = 2**63 - 1
AMOUNT_MAX = 10**12


class IdConverter:
    """``<id:…>`` in a URL: a whole number that fits an id column; a longer one is a 404, not an
    overflow in the database (registered by config/urls.py before the apps' URLs load)."""

    regex = "[0-9]{1,19}"

    def to_python(self, value: str) -> int:
        number = int(value)
        if number > ID_MAX:
            raise ValueError(value)  # the resolver tries the next pattern, then answers 404
        return number

    def to_url(self, value: int) -> str:
        return str(value)
