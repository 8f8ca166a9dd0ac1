"""Five- and three-card row evaluation (docs/RULES.md section 1, "5-card categories" and
"Ties inside a category"; section 2, "No suits are compared").

:func:`rank5` and :func:`rank3` return an ``int`` key; a higher key is a better row, and
both functions share ONE key space, so the foul check of docs/RULES.md ("back ≥ middle ≥
front ... equal is allowed") is literally ``rank3(front) <= rank5(middle) <= rank5(back)``.

Key layout (26 bits)::

    category << 22 | r1 << 18 | r2 << 14 | r3 << 10 | r4 << 6 | r5 << 2 | suit

``r1..r5`` are rank indices (0 = deuce .. 12 = ace) in comparison order: the made ranks
first (quads, trips, pairs, high pair before low pair), then the kickers high to low;
unused nibbles are 0. A three-card front therefore fills only the first nibbles, which
is exactly "the front's kickers against the middle's highest kickers; equal is not a
foul": padding 0 never makes the front bigger. A straight or straight flush stores only
its top card (5 for the wheel A-2-3-4-5). ``suit`` (0 = ♦ .. 3 = ♠) is filled only with
``suits=True`` and only for the categories whose ties docs/RULES.md breaks by suit: flush
(suit of the highest card), straight and straight flush (suit of the top card).

>>> from games.engine.cards import parse_cards
>>> def r5(s, suits=True): return rank5(parse_cards(s.split()), suits=suits)
>>> describe(r5("Ah Kh Qh Jh Th")), is_royal(r5("Ah Kh Qh Jh Th"))
('royal flush', True)
>>> r5("As 2d 3c 4h 5s") < r5("2s 3d 4c 5h 6s")        # the wheel is the lowest straight
True
>>> r5("Ah Kh Qh Jh 9h") < r5("As Ks Qs Js 9s")        # flush tie: suit of the top card
True
>>> r5("Ah Kh Qh Jh 9h", False) == r5("As Ks Qs Js 9s", False)
True
>>> rank3(parse_cards(["Kd", "Kc", "Ah"]), suits=True) <= r5("Kh Ks Ad 3c 2d")   # not a foul
True
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations_with_replacement

HIGH_CARD = 0
PAIR = 1
TWO_PAIR = 2
TRIPS = 3
STRAIGHT = 4
FLUSH = 5
FULL_HOUSE = 6
QUADS = 7
STRAIGHT_FLUSH = 8

CATEGORY_NAMES: tuple[str, ...] = (
    "high card",
    "pair",
    "two pair",
    "trips",
    "straight",
    "flush",
    "full house",
    "quads",
    "straight flush",
)

CAT_SHIFT = 22
#: Where the first rank nibble sits: a straight's top card, whose suit breaks its ties.
TOP_SHIFT = 18
_NIBBLE_SHIFTS = (TOP_SHIFT, 14, 10, 6, 2)
_ACE = 12
_FIVE = 3

#: One prime per rank (deuce .. ace): the product of a row's primes names its rank multiset,
#: whatever the order, and keys the lookup tables below.
PRIMES: tuple[int, ...] = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41)
CARD_PRIME: tuple[int, ...] = tuple(PRIMES[c >> 2] for c in range(52))


def _pack(cat: int, ranks: Sequence[int]) -> int:
    key = cat << CAT_SHIFT
    for shift, r in zip(_NIBBLE_SHIFTS, ranks, strict=False):
        key |= r << shift
    return key


def _straight_top(distinct_desc: Sequence[int]) -> int | None:
    """Top rank of five distinct ranks forming a straight (3 for the wheel), else None."""
    if len(distinct_desc) != 5:
        return None
    if distinct_desc[0] - distinct_desc[4] == 4:
        return distinct_desc[0]
    if list(distinct_desc) == [_ACE, 3, 2, 1, 0]:
        return _FIVE
    return None


def _grouped(ranks: Sequence[int]) -> list[int]:
    """Ranks ordered for comparison: by multiplicity, then rank, each rank once."""
    counts = {r: ranks.count(r) for r in set(ranks)}
    return sorted(counts, key=lambda r: (counts[r], r), reverse=True)


def _plain_key(ranks: Sequence[int]) -> int:
    """Key of a rank multiset, ignoring flushes (and suits)."""
    order = _grouped(ranks)
    shape = sorted((ranks.count(r) for r in order), reverse=True)
    top = _straight_top(order) if len(ranks) == 5 else None
    if top is not None:
        return _pack(STRAIGHT, [top])
    cat = {
        (4, 1): QUADS,
        (3, 2): FULL_HOUSE,
        (3, 1, 1): TRIPS,
        (3,): TRIPS,
        (2, 2, 1): TWO_PAIR,
        (2, 1, 1, 1): PAIR,
        (2, 1): PAIR,
    }.get(tuple(shape), HIGH_CARD)
    return _pack(cat, order)


def _flush_key(ranks: Sequence[int]) -> int:
    """Key of five distinct ranks of one suit (suit bits left 0)."""
    order = sorted(ranks, reverse=True)
    top = _straight_top(order)
    if top is not None:
        return _pack(STRAIGHT_FLUSH, [top])
    return _pack(FLUSH, order)


def prime_product(ranks: Sequence[int]) -> int:
    """The product of the ranks' :data:`PRIMES`: the lookup tables' key of a rank multiset."""
    p = 1
    for r in ranks:
        p *= PRIMES[r]
    return p


def _build() -> tuple[dict[int, int], dict[int, int], dict[int, int]]:
    """The lookup tables by :func:`prime_product` of the ranks, keys without suit bits.
    Straight keys in the plain table are stored negated, so the common case needs one
    comparison to know no suit is needed."""
    plain5: dict[int, int] = {}
    flush5: dict[int, int] = {}
    for ranks in combinations_with_replacement(range(13), 5):
        if max(ranks.count(r) for r in ranks) > 4:
            continue
        p = prime_product(ranks)
        key = _plain_key(ranks)
        plain5[p] = -key if key >> CAT_SHIFT == STRAIGHT else key
        if len(set(ranks)) == 5:
            flush5[p] = _flush_key(ranks)
    plain3 = {prime_product(r): _plain_key(r) for r in combinations_with_replacement(range(13), 3)}
    return plain5, flush5, plain3


#: The one build of the 5-card tables, shared with :mod:`games.engine.solver.evaluate` (and the
#: batch evaluator of the benchmarks): ``PLAIN5`` keys a row that is not one suit (straights
#: negated), ``FLUSH5`` a one-suit row of five distinct ranks, ``PLAIN3`` a front.
PLAIN5, FLUSH5, PLAIN3 = _build()


def rank5(cards: Sequence[int], *, suits: bool) -> int:
    """Key of a 5-card row (docs/RULES.md "5-card categories", "Ties inside a category").

    ``suits=True`` (thirteen) breaks flush ties by the suit of the highest card and
    straight / straight flush ties by the suit of the top card; ``suits=False``
    (thirteen_trio) never looks at suits, so equal rows tie.
    """
    a, b, c, d, e = cards
    cp = CARD_PRIME
    p = cp[a] * cp[b] * cp[c] * cp[d] * cp[e]
    s = a & 3
    if (b & 3) == s and (c & 3) == s and (d & 3) == s and (e & 3) == s:
        return FLUSH5[p] | s if suits else FLUSH5[p]
    key = PLAIN5[p]
    if key >= 0:
        return key
    key = -key  # a straight: its suit tie-break is the suit of the top card
    if suits:
        top = (key >> TOP_SHIFT) & 15
        for card in cards:
            if card >> 2 == top:
                return key | (card & 3)
    return key


def rank3(cards: Sequence[int], *, suits: bool) -> int:
    """Key of a 3-card front (docs/RULES.md: "only high card, pair or trips").

    Suits never matter for a front; ``suits`` is accepted so callers can pass the
    game's setting uniformly.
    """
    a, b, c = cards
    cp = CARD_PRIME
    return PLAIN3[cp[a] * cp[b] * cp[c]]


def rank_row(cards: Sequence[int], *, suits: bool) -> int:
    """:func:`rank3` or :func:`rank5` by the row's length."""
    return rank3(cards, suits=suits) if len(cards) == 3 else rank5(cards, suits=suits)


def category(key: int) -> int:
    """The category constant (``HIGH_CARD`` .. ``STRAIGHT_FLUSH``) of a key."""
    return key >> CAT_SHIFT


def key_ranks(key: int) -> tuple[int, int, int, int, int]:
    """The five rank nibbles of a key, in comparison order (unused ones are 0)."""
    r = [(key >> s) & 15 for s in _NIBBLE_SHIFTS]
    return r[0], r[1], r[2], r[3], r[4]


def key_suit(key: int) -> int:
    """The suit tie-break stored in a key (0 unless ``suits=True`` used it)."""
    return key & 3


def is_royal(key: int) -> bool:
    """An ace-high straight flush (docs/RULES.md bonus row "royal flush")."""
    return category(key) == STRAIGHT_FLUSH and key_ranks(key)[0] == _ACE


_RANK_NAMES = ("two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "jack", "queen", "king", "ace")
_PLURALS = (
    "twos",
    "threes",
    "fours",
    "fives",
    "sixes",
    "sevens",
    "eights",
    "nines",
    "tens",
    "jacks",
    "queens",
    "kings",
    "aces",
)


def describe(key: int) -> str:
    """A readable name such as ``"pair of kings"`` or ``"king-high straight"``.

    >>> from games.engine.cards import parse_cards
    >>> describe(rank3(parse_cards(["Kd", "Kc", "2h"]), suits=True))
    'pair of kings'
    >>> describe(rank5(parse_cards(["As", "2d", "3c", "4h", "5s"]), suits=True))
    'five-high straight'
    """
    cat = category(key)
    r = key_ranks(key)
    hi = _RANK_NAMES[r[0]]
    texts = {
        HIGH_CARD: f"{hi} high",
        PAIR: f"pair of {_PLURALS[r[0]]}",
        TWO_PAIR: f"two pair, {_PLURALS[r[0]]} and {_PLURALS[r[1]]}",
        TRIPS: f"trip {_PLURALS[r[0]]}",
        STRAIGHT: f"{hi}-high straight",
        FLUSH: f"{hi}-high flush",
        FULL_HOUSE: f"full house, {_PLURALS[r[0]]} full of {_PLURALS[r[1]]}",
        QUADS: f"four {_PLURALS[r[0]]}",
        STRAIGHT_FLUSH: "royal flush" if is_royal(key) else f"{hi}-high straight flush",
    }
    return texts[cat]
