"""Coins of one game: 墩 × base, commission and the disconnection penalty (docs/RULES.md section 2 "Money").

>>> game_coins([4, -2, -2], base=100, commission_percent=5)
([380, -200, -200], 20)
>>> penalty(base=10_000, payer=1, head=0)
{'seat': 1, 'amount': 5000, 'coins': [2000, -5000, 2000], 'house': 1000}
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from games.engine.thirteen_trio.rules import PLAYERS

#: The penalty's split: 40 % to each of the two other seats, 20 % to the house.
PENALTY_SHARE_PERCENT = 40
PENALTY_HOUSE_PERCENT = 20


def commission(win: int, percent: int) -> int:
    """The house's commission on one player's net win of a game, rounded down (0 on a loss)."""
    return win * percent // 100 if win > 0 else 0


def game_coins(units: Sequence[int], *, base: int, commission_percent: int) -> tuple[list[int], int]:
    """``(coins per seat after commission, total commission)``: 1 墩 = base (docs/RULES.md "Money").

    Commission is 5 % (the rule's percentage) of each player's net win, rounded down.
    """
    gross = [u * base for u in units]
    cuts = [commission(g, commission_percent) for g in gross]
    return [g - c for g, c in zip(gross, cuts, strict=True)], sum(cuts)


def split(total: int, claims: Sequence[int], *, after: int) -> list[int]:
    """Split ``total`` in proportion to ``claims`` (docs/RULES.md intro).

    Each share is ``⌊total · cᵢ / Σc⌋``; the leftover coins go one each to the claims in
    seat order starting from the seat after ``after``.

    >>> split(43, [1, 0, 1], after=0)
    [21, 0, 22]
    >>> split(43, [1, 0, 1], after=2)
    [22, 0, 21]
    """
    whole = sum(claims)
    shares = [total * c // whole for c in claims]
    left = total - sum(shares)
    order = [(after + 1 + i) % len(claims) for i in range(len(claims))]
    for seat in order:
        if left == 0:
            break
        if claims[seat] > 0:
            shares[seat] += 1
            left -= 1
    return shares


def penalty_amount(base: int) -> int:
    """What the first seat to disconnect in a game pays: ½ base, rounded down (docs/RULES.md
    section 2 "Disconnecting or leaving").

    >>> penalty_amount(10_000), penalty_amount(107)
    (5000, 53)
    """
    return base // 2


def penalty(*, base: int, payer: int, head: int) -> dict[str, Any]:
    """The disconnection penalty of one game (docs/RULES.md section 2 "Disconnecting or leaving").

    The first seat to disconnect pays ½ base (rounded down on an odd base): the house's
    20 % rounded down, the rest to the other two seats in equal claims (40 % each),
    leftovers in seat order starting after the table head. No commission is taken on it.

    >>> penalty(base=107, payer=0, head=0)
    {'seat': 0, 'amount': 53, 'coins': [-53, 22, 21], 'house': 10}
    """
    amount = penalty_amount(base)
    house = amount * PENALTY_HOUSE_PERCENT // 100
    claims = [0 if s == payer else PENALTY_SHARE_PERCENT for s in range(PLAYERS)]
    coins = split(amount - house, claims, after=head)
    coins[payer] = -amount
    return {"seat": payer, "amount": amount, "coins": coins, "house": house}
