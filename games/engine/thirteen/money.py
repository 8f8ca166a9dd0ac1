"""Units to coins for ``thirteen`` (docs/RULES.md section 1, "Money").

Table stakes: the pairs are processed in comparison order and every transfer is cut to
what both players' remaining budgets allow; the transfer is taken from both budgets
(wins use up the budget just as losses do). Then commission is taken from each player's
net win, rounded down, at the stake level's rate.

The seed's example (unit 1, C holds 7, A deals): A beats C by 4 (C's budget 7 → 3),
C beats B by 1 (→ 2), C beats D by 3, cut to 2 (→ 0).

>>> order = [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]
>>> trim_transfers([0, 4, 0, -1, 0, 3], order, stacks=[100, 100, 7, 100], unit=1)
[0, 4, 0, -1, 0, 2]
>>> commissions([100, -37, -63], Fraction(5, 100)), commissions([19, -19], Fraction(5, 100))
([5, 0, 0], [0, 0])
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from math import floor
from typing import Any


def trim_transfers(
    units: Sequence[int], order: Sequence[tuple[int, int]], *, stacks: Sequence[int], unit: int
) -> list[int]:
    """Coins the first seat of each pair receives (negative: pays), after table stakes."""
    budget = list(stacks)
    moved = []
    for u, (a, b) in zip(units, order, strict=True):
        amount = min(abs(u) * unit, budget[a], budget[b])
        budget[a] -= amount
        budget[b] -= amount
        moved.append(amount if u > 0 else -amount)
    return moved


def commissions(net: Sequence[int], rate: Fraction) -> list[int]:
    """Each player's commission: their net win times the rate, rounded down (0 on a loss)."""
    return [floor(n * rate) if n > 0 else 0 for n in net]


def settle_coins(
    units: Sequence[int],
    order: Sequence[tuple[int, int]],
    *,
    stacks: Sequence[int],
    unit: int,
    rate: Fraction,
) -> dict[str, Any]:
    """Pair results in units → per-seat coins; ``sum(coins) + commission == 0``."""
    moved = trim_transfers(units, order, stacks=stacks, unit=unit)
    trimmed = [0] * len(stacks)
    for amount, (a, b) in zip(moved, order, strict=True):
        trimmed[a] += amount
        trimmed[b] -= amount
    cut = commissions(trimmed, rate)
    coins = [t - c for t, c in zip(trimmed, cut, strict=True)]
    return {
        "transfers": moved,
        "trimmed": trimmed,
        "commissions": cut,
        "coins": coins,
        "commission": sum(cut),
    }
