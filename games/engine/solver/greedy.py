"""The plain greedy arranger: a reference opponent for the benchmarks and for building the
opponent tables (docs/RULES.md section 1 "Rows", section 2 "Arranging").

Greedy takes the best 5 cards as the back, the best 5 of the rest as the middle and the
rest (13 cards) or the best 3 of the rest (17 cards) as the front. Written as "the
lexicographically strongest *legal* (back, middle, front)", which is the same thing
whenever plain greedy is legal and the smallest fix-up when it would foul.

>>> from games.engine.cards import parse_cards, cards_str
>>> rows = greedy(parse_cards("As Ah Kd Kc 7s 7h 7d 4c 5d 6h 8s 9c 2d".split()), suits=True)
>>> [cards_str(r) for r in rows]
[['5d', '4c', '2d'], ['Kc', 'Kd', '9c', '8s', '6h'], ['As', 'Ah', '7s', '7h', '7d']]
"""

from __future__ import annotations

from collections.abc import Sequence

from games.engine.solver.evaluate import cards_of, fives, threes


def greedy_masks(cards: Sequence[int], *, suits: bool) -> tuple[int, int, int]:
    """``(front, middle, back)`` masks of the greedy arrangement (never a foul)."""
    five = sorted(fives(cards, suits), reverse=True)
    three = sorted(threes(cards), reverse=True)
    for kb, bm in five:
        for km, mm in five:
            if km > kb or mm & bm:
                continue
            used = bm | mm
            for kf, fm in three:
                if not fm & used and kf <= km:
                    return fm, mm, bm
    raise AssertionError("every hand has a legal arrangement")  # pragma: no cover


def greedy(cards: Sequence[int], *, suits: bool) -> tuple[list[int], list[int], list[int]]:
    """``(front, middle, back)`` card lists of the greedy arrangement, highest card first."""
    f, m, b = greedy_masks(cards, suits=suits)
    return cards_of(f, cards), cards_of(m, cards), cards_of(b, cards)
