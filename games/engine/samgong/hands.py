"""三公 hand evaluation (docs/RULES.md section 3: card points, single-card order, rankings).

Card points: A = 1, 2–9 face value, 10 J Q K = 0; a hand's points are the sum mod 10.
Single-card order K > Q > J > 10 > 9 > … > 2 > A, then suit ♠ > ♥ > ♣ > ♦.

:func:`evaluate` returns a key (a tuple of ints) that compares like the hands: a larger
key is the better hand. Its first element is the category: ``0..9`` for point hands, then
``10..12`` for the three 三公 categories of the ranking:

========  ===============  ================
category  ``classic``      ``tiers``
========  ===============  ================
12        ``zhizun`` 至尊   ``da_sangong`` 大三公 (JJJ QQQ KKK)
11        ``da_sangong``   ``xiao_sangong`` 小三公
10        ``sangong``      ``hun_sangong`` 混三公
0..9      ``point_0`` … ``point_9``
========  ===============  ================

Examples from the seed (point hands: KQ9 = 9, 553 = 3, 235 = 0):

>>> from games.engine.cards import parse_cards
>>> [hand_name(evaluate(parse_cards(h), "classic"), "classic")
...  for h in (["Ks", "Qs", "9s"], ["5s", "5h", "3d"], ["2s", "3s", "5s"], ["3s", "3h", "3d"])]
['point_9', 'point_3', 'point_0', 'zhizun']

Seed check (tiers): ♠2 ♦3 ♦4 loses to ♥3 ♣4 ♦2 — both 9, no face card, ♣4 > ♦4.

>>> evaluate(parse_cards(["2s", "3d", "4d"]), "tiers") < evaluate(parse_cards(["3h", "4c", "2d"]), "tiers")
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from games.engine.cards import check_distinct, rank_of, suit_of
from games.engine.errors import CardError, EngineError
from games.engine.samgong.rules import MULTIPLIERS, RANKINGS

Key = tuple[int, ...]

_ACE, _THREE, _TEN, _JACK, _KING = 12, 1, 8, 9, 11
_TOP_NAMES = {
    "classic": {10: "sangong", 11: "da_sangong", 12: "zhizun"},
    "tiers": {10: "hun_sangong", 11: "xiao_sangong", 12: "da_sangong"},
}
#: Every hand name id of each ranking, lowest first.
HAND_NAMES = {r: [f"point_{p}" for p in range(10)] + [_TOP_NAMES[r][c] for c in (10, 11, 12)] for r in RANKINGS}


def card_points(card: int) -> int:
    """Points of one card: A = 1, 2–9 face value, 10 J Q K = 0."""
    rank = rank_of(card)
    if rank == _ACE:
        return 1
    return rank + 2 if rank < _TEN else 0


def hand_points(cards: Sequence[int]) -> int:
    """A hand's points: the sum of its card points mod 10.

    >>> from games.engine.cards import parse_cards
    >>> hand_points(parse_cards(["Ks", "Qs", "9s"])), hand_points(parse_cards(["As", "Td", "Jc"]))
    (9, 1)
    """
    return sum(card_points(c) for c in cards) % 10


def order(card: int) -> int:
    """Single-card rank order: A = 0, 2 = 1, …, 10 = 9, J = 10, Q = 11, K = 12."""
    return (rank_of(card) + 1) % 13


def strength(card: int) -> int:
    """Single-card order, then suit: a unique number per card, larger is better."""
    return order(card) * 4 + suit_of(card)


def is_face(card: int) -> bool:
    """J, Q and K are face cards (公牌); 10 is not."""
    return _JACK <= rank_of(card) <= _KING


def check_hand(cards: Any, field: str = "cards") -> list[int]:
    """Three distinct card ints, or :class:`CardError` naming ``field``."""
    if not isinstance(cards, list | tuple) or len(cards) != 3:
        raise CardError(f"{field}: expected 3 cards")
    for card in cards:
        if not isinstance(card, int) or isinstance(card, bool) or not 0 <= card < 52:
            raise CardError(f"{field}: bad card {card!r}")
    check_distinct(cards, field=field)
    return list(cards)


def evaluate(cards: Sequence[int], ranking: str) -> Key:
    """Comparable key of a 3-card hand under ``classic`` or ``tiers`` (docs/RULES.md section 3).

    ``classic``: 至尊 (333) > 大三公 (other trips, K high … A low) > 三公 (three face cards)
    > 9 … 0; 三公 ties by the highest face card then its suit; point ties by more face
    cards, then the rank of the highest face card, then the highest non-face card, rank
    then suit. ``tiers``: 大三公 (JJJ/QQQ/KKK) > 小三公 (10-10-10 … AAA) > 混三公 > 9 … 0;
    混三公 ties by the highest face card then suit; point ties by more face cards, then
    the highest card, rank then suit.

    >>> from games.engine.cards import parse_cards
    >>> ev = lambda h: evaluate(parse_cards(h), "tiers")
    >>> ev(["Jh", "Qd", "9s"]) > ev(["Js", "Td", "9c"]), ev(["Kd", "Qd", "9d"]) > ev(["Js", "Qs", "9s"])
    (True, True)
    """
    hand = check_hand(cards)
    if ranking not in RANKINGS:
        raise EngineError(f"ranking: expected one of {', '.join(RANKINGS)}, got {ranking!r}")
    ranks = {rank_of(c) for c in hand}
    faces = [c for c in hand if is_face(c)]
    if len(ranks) == 1:
        return _trips_key(hand[0], ranking)
    if len(faces) == 3:
        return (10, max(strength(c) for c in hand))
    points = hand_points(hand)
    if ranking == "tiers":
        return (points, len(faces), max(strength(c) for c in hand))
    top_face = max((order(c) for c in faces), default=-1)
    top_plain = max(strength(c) for c in hand if not is_face(c))
    return (points, len(faces), top_face, top_plain)


def _trips_key(card: int, ranking: str) -> Key:
    if ranking == "classic":
        return (12, 0) if rank_of(card) == _THREE else (11, order(card))
    return (12 if is_face(card) else 11, order(card))


def hand_name(key: Key, ranking: str) -> str:
    """Stable snake_case id of the hand's category (see the module table)."""
    return HAND_NAMES[ranking][key[0]]


def multiplier(key: Key, ranking: str, table: dict[str, int] | None = None) -> int:
    """Hand multiplier (docs/RULES.md: 0–6 ×1, 7–9 ×2, then ×3, ×4, ×5 up the 三公 categories).

    ``table`` is a room's multiplier table (``rules["multipliers"]``); default docs/RULES.md's.

    >>> from games.engine.cards import parse_cards
    >>> multiplier(evaluate(parse_cards(["3s", "3h", "3d"]), "classic"), "classic")
    5
    """
    return (table or MULTIPLIERS[ranking])[hand_name(key, ranking)]


def is_zero_point(key: Key) -> bool:
    """The "0" category (loses the bank in banker modes); 三公 categories never are."""
    return key[0] == 0


def is_sangong(key: Key) -> bool:
    """Any of the three 三公 categories (three of a kind or three face cards)."""
    return key[0] >= 10


def house_key(key: Key) -> Key:
    """Category and points only (docs/RULES.md `house`): trips ranks still compare, two
    混三公 tie, equal points tie."""
    return key[:2] if key[0] >= 11 else key[:1]
