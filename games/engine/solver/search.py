"""What the two solvers share: the best-k keeper and the result records (docs/SOLVER.md)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from games.engine.solver.evaluate import cards_of

Masks = tuple[int, int, int]  # (front, middle, back) bitmasks over the hand's positions
Keys = tuple[int, int, int]


class TopK:
    """The ``k`` best arrangements with distinct row keys; ``floor`` is the value to beat.

    Two arrangements with the same three row keys score the same against every
    opponent (up to specials, which the caller folds into the value), so alternatives
    that only swap equal cards are not offered.
    """

    def __init__(self, k: int) -> None:
        self.k = k
        self.found: dict[Keys, tuple[float, Masks]] = {}
        self.floor = float("-inf")

    def offer(self, value: float, keys: Keys, masks: Masks) -> None:
        """Keep the arrangement if it beats the floor (for the same keys: if it beats their
        value); beyond ``k`` drop the worst, the lowest (value, keys)."""
        if value <= self.floor:
            return
        found = self.found
        if self.k == 1:  # a single entry's value is the floor: anything past it replaces it
            found.clear()
        else:
            old = found.get(keys)
            if old is not None and old[0] >= value:
                return
        found[keys] = (value, masks)
        if len(found) > self.k:
            del found[min((v, kk) for kk, (v, _) in found.items())[1]]
        if len(found) == self.k:
            self.floor = min(v for v, _ in found.values())

    def best(self) -> list[tuple[float, Keys, Masks]]:
        """Best first; equal values in descending key order (stronger back first)."""
        entries = [(v, kk, m) for kk, (v, m) in self.found.items()]
        return sorted(entries, key=lambda t: (-t[0], -t[1][2], -t[1][1], -t[1][0]))


def record(cards: Sequence[int], masks: Masks, *, declare: bool, score: float) -> dict[str, Any]:
    """The public result: ``{"front", "middle", "back", "declare", "score"}``, rows highest first."""
    f, m, b = masks
    return {
        "front": cards_of(f, cards),
        "middle": cards_of(m, cards),
        "back": cards_of(b, cards),
        "declare": declare,
        "score": round(score, 4),
    }
