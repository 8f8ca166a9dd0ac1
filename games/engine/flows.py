"""The coins that moved between two seats of a settled hand, for the integrity signals
(docs/INTEGRITY.md "What each signal measures"). Plain data, no Django.

A flow is ``(payer seat, receiver seat, coins)`` with ``coins > 0``. Games whose players pay one
another through a pot net the seats' coins (:func:`netted_flows`); a banker game moves coins only
between the banker and each player (:func:`banker_flows`); at a house-banked table players never
pay one another (no flows at all).

>>> netted_flows([300, -100, -200])
[(1, 0, 100), (2, 0, 200)]
>>> netted_flows([150, 50, -200])
[(2, 0, 150), (2, 1, 50)]
>>> banker_flows([-30, 50, -20, 0], banker=1)
[(0, 1, 30), (2, 1, 20)]
>>> banker_flows([70, -50, -20], banker=0)
[(1, 0, 50), (2, 0, 20)]
>>> banker_flows([-90, 40, 50], banker=0)
[(0, 1, 40), (0, 2, 50)]
"""

from __future__ import annotations

from collections.abc import Sequence

Flow = tuple[int, int, int]


def netted_flows(coins: Sequence[int]) -> list[Flow]:
    """What each losing seat lost, shared among the winning seats by what each won (rounded
    toward zero): exact between the two seats of a two-seat hand."""
    won = sum(c for c in coins if c > 0)
    flows = [
        (payer, receiver, gain * -lost // won)
        for payer, lost in enumerate(coins) if lost < 0
        for receiver, gain in enumerate(coins) if gain > 0
    ]
    return [f for f in flows if f[2] > 0]


def banker_flows(coins: Sequence[int], *, banker: int) -> list[Flow]:
    """Each player's result is what the banker paid them or was paid by them, and nobody
    else: players never pay one another."""
    flows: list[Flow] = []
    for seat, amount in enumerate(coins):
        if seat == banker or amount == 0:
            continue
        flows.append((seat, banker, -amount) if amount < 0 else (banker, seat, amount))
    return flows
