"""The automatic arrangement of a ``thirteen`` hand (RULES.md section 1, "Disconnected
players ... their hand is auto-played"): what a timed-out seat plays.

It never fouls, and it declares a natural whenever the 13 cards hold one. The rows are
chosen by trying every split of the 13 cards into back 5 / middle 5 / front 3 that keeps
back ≥ middle ≥ front, and keeping the split with the best estimated value: each row's
rough chance of beating a typical row in that position, weighted by what winning it
pays (bonus rows included).

>>> from games.engine.cards import parse_cards, cards_str
>>> a = arrange(parse_cards("As Ah Kd Kc 7s 7h 7d 4c 5d 6h 8s 9c 2d".split()))
>>> [cards_str(a[row]) for row in ("front", "middle", "back")], a["declare"]
([['As', 'Ah', '9c'], ['Kc', 'Kd', '7h', '7d', '2d'], ['8s', '7s', '6h', '5d', '4c']], False)
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from itertools import combinations
from typing import Any

from games.engine.errors import EngineError
from games.engine.poker import (
    FLUSH,
    FULL_HOUSE,
    HIGH_CARD,
    PAIR,
    QUADS,
    STRAIGHT,
    STRAIGHT_FLUSH,
    TRIPS,
    TWO_PAIR,
    category,
    rank3,
    rank5,
)
from games.engine.thirteen.naturals import best_natural
from games.engine.thirteen.scoring import BACK, FRONT, MIDDLE, row_value

# Rough chance a row of each category beats an opponent's row in the same position,
# from the bottom to the top of the category.
_WIN_RANGES: dict[int, dict[int, tuple[float, float]]] = {
    BACK: {
        HIGH_CARD: (0.0, 0.03),
        PAIR: (0.03, 0.2),
        TWO_PAIR: (0.2, 0.45),
        TRIPS: (0.45, 0.55),
        STRAIGHT: (0.55, 0.68),
        FLUSH: (0.68, 0.82),
        FULL_HOUSE: (0.82, 0.95),
        QUADS: (0.96, 0.99),
        STRAIGHT_FLUSH: (0.99, 1.0),
    },
    MIDDLE: {
        HIGH_CARD: (0.0, 0.1),
        PAIR: (0.1, 0.45),
        TWO_PAIR: (0.45, 0.7),
        TRIPS: (0.7, 0.78),
        STRAIGHT: (0.78, 0.86),
        FLUSH: (0.86, 0.92),
        FULL_HOUSE: (0.92, 0.97),
        QUADS: (0.98, 0.99),
        STRAIGHT_FLUSH: (0.99, 1.0),
    },
    FRONT: {HIGH_CARD: (0.0, 0.35), PAIR: (0.4, 0.9), TRIPS: (0.92, 1.0)},
}
_INSIDE = (1 << 22) - 1
_SPAN = 13 << 18


def row_score(row: int, key: int) -> float:
    """Estimated value of a row: P(win) × (its pay + 1), the +1 being the loss avoided."""
    low, high = _WIN_RANGES[row][category(key)]
    p = low + (high - low) * (key & _INSIDE) / _SPAN
    return p * (row_value(row, key) + 1)


@cache
def _splits() -> tuple[list[tuple[int, ...]], list[tuple[int, ...]], list[list[tuple[int, int]]]]:
    """Index sets of 13 positions: the 5-subsets, the 3-subsets, and for each 5-subset
    taken as the back, every (middle, front) split of the other 8 as subset numbers."""
    fives: list[tuple[int, ...]] = list(combinations(range(13), 5))
    threes: list[tuple[int, ...]] = list(combinations(range(13), 3))
    five_no = {s: i for i, s in enumerate(fives)}
    three_no = {s: i for i, s in enumerate(threes)}
    splits = []
    for back in fives:
        rest = [i for i in range(13) if i not in back]
        pairs = []
        for middle in combinations(rest, 5):
            front = tuple(i for i in rest if i not in middle)
            pairs.append((five_no[middle], three_no[front]))
        splits.append(pairs)
    return fives, threes, splits


def _best_split(cards: Sequence[int]) -> tuple[int, int, int]:
    fives, threes, splits = _splits()
    k5 = [rank5([cards[i] for i in s], suits=True) for s in fives]
    k3 = [rank3([cards[i] for i in s], suits=True) for s in threes]
    back_s = [row_score(BACK, k) for k in k5]
    mid_s = [row_score(MIDDLE, k) for k in k5]
    front_s = [row_score(FRONT, k) for k in k3]
    ceiling = max(mid_s) + max(front_s)
    best, choice = -1.0, (-1, -1, -1)
    for b in sorted(range(len(fives)), key=back_s.__getitem__, reverse=True):
        bk, bs = k5[b], back_s[b]
        if bs + ceiling <= best:
            break
        for m, f in splits[b]:
            mk = k5[m]
            if mk > bk or k3[f] > mk:
                continue
            score = bs + mid_s[m] + front_s[f]
            if score > best:
                best, choice = score, (f, m, b)
    return choice


def arrange(cards: list[int]) -> dict[str, Any]:
    """A legal, never-fouled arrangement of 13 cards (RULES.md section 1, "Rows").

    Returns ``{"front": [3 cards], "middle": [5], "back": [5], "declare": bool}`` with card
    ints, each row highest card first; ``declare`` is True exactly when the cards hold a natural (RULES.md "Naturals").
    """
    if len(cards) != 13 or len(set(cards)) != 13:
        raise EngineError("cards: expected 13 different cards")
    fives, threes, _ = _splits()
    f, m, b = _best_split(cards)
    return {
        "front": sorted((cards[i] for i in threes[f]), reverse=True),
        "middle": sorted((cards[i] for i in fives[m]), reverse=True),
        "back": sorted((cards[i] for i in fives[b]), reverse=True),
        "declare": best_natural(cards) is not None,
    }
