"""Row keys for the solver: every 5- and 3-card subset of a hand at once (RULES.md section 1,
"5-card categories" and "Ties inside a category"; section 2, "No suits are compared").

The keys are exactly :func:`games.engine.poker.rank5` / :func:`~games.engine.poker.rank3`
(same key space, same suit tie-breaks); the tables below are built *from* those functions
at import, and the tests check the two agree. What is faster here is the enumeration:
:func:`fives` walks the 5-subsets of a hand in nested loops that share the partial
prime products and suit checks, so each subset costs one multiplication and one lookup.

>>> from games.engine.cards import parse_cards
>>> from games.engine.poker import rank5
>>> hand = parse_cards("As Ks Qs Js Ts 9d".split())
>>> key5(hand[:5], True) == rank5(hand[:5], suits=True)
True
>>> len(fives(hand, True)), max(fives(hand, True))[0] == rank5(hand[:5], suits=True)
(6, True)
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations_with_replacement

from games.engine import poker

_PRIMES = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41)
CARD_PRIME: tuple[int, ...] = tuple(_PRIMES[c >> 2] for c in range(52))
_TOP_SHIFT = 18


def _product(ranks: Sequence[int]) -> int:
    p = 1
    for r in ranks:
        p *= _PRIMES[r]
    return p


def _build() -> tuple[dict[int, int], dict[int, int], dict[int, int]]:
    """Keys by prime product, computed by :mod:`games.engine.poker` itself.

    ``PLAIN`` holds the suitless key of a non-flush 5-card row, negated for straights
    (whose suit tie-break needs the top card); ``FLUSH`` the suitless key of a one-suit
    row; ``THREE`` the key of a front.
    """
    plain: dict[int, int] = {}
    flush: dict[int, int] = {}
    for ranks in combinations_with_replacement(range(13), 5):
        if max(ranks.count(r) for r in ranks) > 4:
            continue
        # Card i gets suit i % 4: equal ranks are adjacent, so they get different suits,
        # and five cards never share one suit.
        cards = [r * 4 + i % 4 for i, r in enumerate(ranks)]
        key = poker.rank5(cards, suits=False)
        plain[_product(ranks)] = -key if poker.category(key) == poker.STRAIGHT else key
        if len(set(ranks)) == 5:
            flush[_product(ranks)] = poker.rank5([r * 4 for r in ranks], suits=False)
    three = {
        _product(r): poker.rank3([x * 4 + i for i, x in enumerate(r)], suits=False)
        for r in combinations_with_replacement(range(13), 3)
    }
    return plain, flush, three


PLAIN, FLUSH, THREE = _build()


def _straight_suit(key: int, cards: Sequence[int]) -> int:
    top = (key >> _TOP_SHIFT) & 15
    return next(c & 3 for c in cards if c >> 2 == top)


def key5(cards: Sequence[int], suits: bool) -> int:
    """The :func:`games.engine.poker.rank5` key of five cards."""
    a, b, c, d, e = cards
    cp = CARD_PRIME
    p = cp[a] * cp[b] * cp[c] * cp[d] * cp[e]
    if not ((a ^ b) | (a ^ c) | (a ^ d) | (a ^ e)) & 3:
        return FLUSH[p] | (a & 3) if suits else FLUSH[p]
    key = PLAIN[p]
    if key >= 0:
        return key
    return -key | _straight_suit(-key, cards) if suits else -key


def key5_plain(cards: Sequence[int]) -> int:
    """:func:`key5` without suits (``thirteen_trio``), the common path made short."""
    a, b, c, d, e = cards
    cp = CARD_PRIME
    p = cp[a] * cp[b] * cp[c] * cp[d] * cp[e]
    if ((a ^ b) | (a ^ c) | (a ^ d) | (a ^ e)) & 3:
        key = PLAIN[p]
        return key if key >= 0 else -key
    return FLUSH[p]


def key3(cards: Sequence[int]) -> int:
    """The :func:`games.engine.poker.rank3` key of a front (suits never matter there)."""
    a, b, c = cards
    cp = CARD_PRIME
    return THREE[cp[a] * cp[b] * cp[c]]


def _fix_straights(out: list[tuple[int, int]], cards: Sequence[int], suits: bool) -> None:
    """Straights were stored negated: make them positive, adding the top card's suit."""
    for i, (key, mask) in enumerate(out):
        if key < 0:
            row = [c for j, c in enumerate(cards) if mask >> j & 1]
            out[i] = (-key | _straight_suit(-key, row) if suits else -key, mask)


def fives(cards: Sequence[int], suits: bool) -> list[tuple[int, int]]:
    """``(key, mask)`` of every 5-subset of ``cards``; bit ``i`` of ``mask`` is ``cards[i]``."""
    n = len(cards)
    pr = [CARD_PRIME[c] for c in cards]
    su = [c & 3 for c in cards]
    plain, flush = PLAIN, FLUSH
    out: list[tuple[int, int]] = []
    append = out.append
    for a in range(n - 4):
        for b in range(a + 1, n - 3):
            pb, mb = pr[a] * pr[b], (1 << a) | (1 << b)
            sb = su[a] if su[a] == su[b] else -1
            for c in range(b + 1, n - 2):
                pc, mc = pb * pr[c], mb | (1 << c)
                sc = sb if sb == su[c] else -1
                for d in range(c + 1, n - 1):
                    pd, md = pc * pr[d], mc | (1 << d)
                    sd = sc if sc == su[d] else -1
                    for e in range(d + 1, n):
                        if sd == su[e]:
                            key = flush[pd * pr[e]]
                            append((key | sd if suits else key, md | (1 << e)))
                        else:
                            append((plain[pd * pr[e]], md | (1 << e)))
    _fix_straights(out, cards, suits)
    return out


def threes(cards: Sequence[int]) -> list[tuple[int, int]]:
    """``(key, mask)`` of every 3-subset of ``cards`` (front keys)."""
    n = len(cards)
    pr = [CARD_PRIME[c] for c in cards]
    three = THREE
    out: list[tuple[int, int]] = []
    for a in range(n - 2):
        for b in range(a + 1, n - 1):
            pb, mb = pr[a] * pr[b], (1 << a) | (1 << b)
            for c in range(b + 1, n):
                out.append((three[pb * pr[c]], mb | (1 << c)))
    return out


def cards_of(mask: int, cards: Sequence[int]) -> list[int]:
    """The cards a mask selects, highest first."""
    return sorted((c for i, c in enumerate(cards) if mask >> i & 1), reverse=True)
