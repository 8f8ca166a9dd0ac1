"""Proportional splits and fees in exact integers (docs/RULES.md intro).

An amount ``T`` split in proportion to claims ``c₁…cₙ`` gives each claim ``⌊T·cᵢ/Σc⌋``;
the leftover coins (fewer than the number of claims) go one each to the claims in seat
order starting from ``start`` (the seat after the dealer, banker or winner; seat 0 where
there is none). House shares are rounded down and never take leftovers.

>>> split_proportional(10, [1, 1, 1], start=1)
[3, 4, 3]
>>> split_proportional(100, [0, 30, 0, 10], start=0)
[0, 75, 0, 25]
>>> house_fee(199, 500)
9
"""

from __future__ import annotations

from collections.abc import Sequence


def split_proportional(total: int, claims: Sequence[int], *, start: int) -> list[int]:
    """Split ``total`` over ``claims`` (one per seat, 0 for no claim); see the module doc."""
    claimed = sum(claims)
    if claimed <= 0 or total <= 0:
        return [0] * len(claims)
    shares = [total * c // claimed for c in claims]
    leftover = total - sum(shares)
    n = len(claims)
    for step in range(n):
        seat = (start + step) % n
        if leftover and claims[seat] > 0:
            shares[seat] += 1
            leftover -= 1
    return shares


def house_fee(amount: int, bps: int) -> int:
    """A house share of ``amount`` at ``bps`` basis points, rounded down (0 on no win)."""
    return amount * bps // 10_000 if amount > 0 else 0


def apply_fees(gross: Sequence[int], bps: int) -> tuple[list[int], list[int]]:
    """Each seat's fee on its net win, and the nets after fees."""
    fees = [house_fee(g, bps) for g in gross]
    return [g - f for g, f in zip(gross, fees, strict=True)], fees
