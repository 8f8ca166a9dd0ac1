"""The house table's side bet: the player hand read as 3-card poker (docs/RULES.md `house`).

Categories, best first: straight flush, trips, straight, flush, pair. Aces play high or
low, but a straight never wraps: A-2-3 and Q-K-A are straights, K-A-2 is not.

>>> from games.engine.cards import parse_cards
>>> [poker_category(parse_cards(h)) for h in (["As", "2s", "3s"], ["Qd", "Kc", "Ah"], ["Kd", "Ac", "2h"])]
['straight_flush', 'straight', None]
"""

from __future__ import annotations

from collections.abc import Sequence

from games.engine.cards import rank_of, suit_of

_WHEEL = [0, 1, 12]  # 2, 3, A


def is_straight(cards: Sequence[int]) -> bool:
    """Three consecutive ranks, ace high (Q-K-A) or low (A-2-3); K-A-2 does not wrap."""
    ranks = sorted(rank_of(c) for c in cards)
    return ranks == _WHEEL or (ranks[1] == ranks[0] + 1 and ranks[2] == ranks[1] + 1)


def poker_category(cards: Sequence[int]) -> str | None:
    """``straight_flush``, ``trips``, ``straight``, ``flush``, ``pair`` or None (no payout)."""
    distinct = len({rank_of(c) for c in cards})
    flush = len({suit_of(c) for c in cards}) == 1
    straight = distinct == 3 and is_straight(cards)
    if straight and flush:
        return "straight_flush"
    if distinct == 1:
        return "trips"
    if straight:
        return "straight"
    if flush:
        return "flush"
    return "pair" if distinct == 2 else None
