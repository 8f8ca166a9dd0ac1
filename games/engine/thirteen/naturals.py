"""Naturals 通杀牌 / 报到 of ``thirteen`` (docs/RULES.md section 1, "Naturals").

Checked on the 13 cards; the best natural the cards qualify for counts.

>>> from games.engine.cards import parse_cards
>>> best_natural(parse_cards("2s 3h 4c 5d 6s 7h 8c 9d Ts Jh Qc Kd Ad".split()))
'dragon'
>>> best_natural(parse_cards("2s 2h 3c 3d 4s 4h 5c 5d 6s 6h 7c 7d 9d".split()))
'six_pairs'
>>> best_natural(parse_cards("2s 2h 2c 3d 3s 4h 4c 5d 5s 6h 6c 7d 7s".split()))
'trips_five_pairs'
>>> NATURAL_VALUES["twelve_suited"], natural_rank("dragon") < natural_rank("six_pairs")
(8, True)
"""

from __future__ import annotations

from collections.abc import Sequence

# (id, rank, value), rank 1 is the highest natural.
NATURALS: tuple[tuple[str, int, int], ...] = (
    ("thirteen_suited", 1, 13),
    ("dragon", 2, 13),
    ("twelve_suited", 3, 8),
    ("trips_five_pairs", 4, 4),
    ("three_straights", 5, 4),
    ("three_flushes", 6, 3),
    ("six_pairs", 7, 3),
)
NATURAL_VALUES: dict[str, int] = {name: value for name, _, value in NATURALS}
_RANKS: dict[str, int] = {name: rank for name, rank, _ in NATURALS}

_ACE = 12
# Rank sets of straights: 3-card fronts (A-2-3 .. Q-K-A) and 5-card rows (A-2-3-4-5 .. T-J-Q-K-A).
_FRONT_RUNS: tuple[tuple[int, ...], ...] = ((_ACE, 0, 1),) + tuple((r, r + 1, r + 2) for r in range(11))
_FIVE_RUNS: tuple[tuple[int, ...], ...] = ((_ACE, 0, 1, 2, 3),) + tuple(tuple(range(r, r + 5)) for r in range(9))


#: The suit counts of three one-suit rows (3, 5 and 5 cards), the suits that hold cards in increasing
#: order: all rows of one suit; two rows of one suit, the third of another (3 + 5 with 5, 5 + 5
#: with 3); each row of its own suit.
_FLUSH_SHAPES: frozenset[tuple[int, ...]] = frozenset({(13,), (5, 8), (3, 10), (3, 5, 5)})


def natural_rank(name: str) -> int:
    """1 (13 of one suit) .. 7 (six pairs); lower is better."""
    return _RANKS[name]


def _counts(cards: Sequence[int], shift_mask: tuple[int, int], size: int) -> list[int]:
    shift, mask = shift_mask
    counts = [0] * size
    for c in cards:
        counts[(c >> shift) & mask] += 1
    return counts


def _take(counts: list[int], run: Sequence[int]) -> list[int] | None:
    left = list(counts)
    for r in run:
        if left[r] == 0:
            return None
        left[r] -= 1
    return left


def has_three_straights(rank_counts: list[int]) -> bool:
    """Front 3 consecutive ranks (A-2-3, Q-K-A allowed), middle and back straights."""
    for front in _FRONT_RUNS:
        after_front = _take(rank_counts, front)
        if after_front is None:
            continue
        for middle in _FIVE_RUNS:
            rest = _take(after_front, middle)
            if rest is not None and any(_take(rest, back) is not None for back in _FIVE_RUNS):
                return True
    return False


def has_three_flushes(suit_counts: list[int]) -> bool:
    """Front 3 of one suit, middle 5 of one suit, back 5 of one suit: the four suits' counts are
    the rows' sizes shared out among the suits (:data:`_FLUSH_SHAPES`).

    >>> has_three_flushes([3, 5, 5, 0]), has_three_flushes([0, 8, 0, 5]), has_three_flushes([4, 4, 5, 0])
    (True, True, False)
    """
    return len(suit_counts) == 4 and tuple(sorted(n for n in suit_counts if n)) in _FLUSH_SHAPES


def qualifying_naturals(cards: Sequence[int]) -> list[str]:
    """Every natural the 13 cards qualify for, best first."""
    ranks = _counts(cards, (2, 15), 13)
    suits = _counts(cards, (0, 3), 4)
    pairs = sum(n // 2 for n in ranks)
    odd = [n for n in ranks if n % 2]
    found = {
        "thirteen_suited": max(suits) == 13,
        "dragon": all(n == 1 for n in ranks),
        "twelve_suited": max(suits) == 12,
        "trips_five_pairs": odd == [3],
        "three_straights": has_three_straights(ranks),
        "three_flushes": has_three_flushes(suits),
        "six_pairs": pairs == 6,
    }
    return [name for name, _, _ in NATURALS if found[name]]


def best_natural(cards: Sequence[int]) -> str | None:
    """docs/RULES.md: "the best natural they qualify for counts"; None without one."""
    found = qualifying_naturals(cards)
    return found[0] if found else None
