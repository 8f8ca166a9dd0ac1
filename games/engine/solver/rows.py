"""A hand's rows in key order, for the searches (docs/SOLVER.md "Search").

Both searches walk rows strongest first and, under a row, only the rows that share no card
with it. Here every 5-subset (or 3-subset) of a hand is keyed once and packed into one small
int, ``rank << n | mask``: ``rank`` is the key's place in :func:`key_order` (every row key of
the game, fronts and 5-card rows in one order, so packed rows compare like their keys) and bit
``i`` of ``mask`` is ``cards[i]``. Sorted, the list is in the order of :func:`sorted_desc
<games.engine.solver.evaluate.sorted_desc>` read backwards (key, then mask). For each card
the hand also gets a bitset over those sorted places, so "the rows without these cards" is
a few integer operations instead of a scan, and the strongest such row is the highest set
bit. The packed rows of both games stay below 2**30 (a 14-bit rank and 13 cards with suits,
13 bits and 17 cards without), one machine digit each, which keeps sorting them fast.

>>> from games.engine.cards import parse_cards
>>> from games.engine.solver.evaluate import fives
>>> hand = parse_cards("As Ks Qs Js Ts 9d 9c 2h 3h 4h 5h 6c 7c".split())
>>> rows = layout(13, 5, True).rows(hand)
>>> [(rows.key(v), rows.mask(v)) for v in reversed(rows.packed)] == sorted(fives(hand, True), reverse=True)
True
>>> spare = rows.without(0b11111)          # the rows sharing no card with the royal flush
>>> rows.key(rows.packed[spare.bit_length() - 1]) == max(k for k, m in fives(hand, True) if not m & 0b11111)
True
"""

from __future__ import annotations

import sys
from array import array
from bisect import bisect_right
from functools import cache, reduce
from itertools import combinations, product
from operator import or_

from games.engine.poker import CARD_PRIME, FLUSH5, PLAIN3, PLAIN5, prime_product
from games.engine.solver.evaluate import subset_masks

__all__ = ["Layout", "Rows", "key_order", "layout"]


@cache
def key_order(suits: bool) -> list[int]:
    """Every row key of the game, ascending: fronts and 5-card rows together (one key space,
    :mod:`games.engine.poker`), straights and flushes once per suit when ``suits``."""
    keys = set(PLAIN3.values()) | set(FLUSH5.values()) | {abs(k) for k in PLAIN5.values()}
    if suits:
        suited = [-k for k in PLAIN5.values() if k < 0] + list(FLUSH5.values())
        keys |= {k | s for k in suited for s in range(1, 4)}
    return sorted(keys)


def _ranks(table: dict[int, int], rank: dict[int, int], shift: int) -> dict[int, int]:
    """``table`` (prime product -> key) as prime product -> ``rank << shift``, straights
    (negative keys) kept negative: their suit is filled in per row."""
    return {p: rank[k] << shift if k >= 0 else -(rank[-k] << shift) for p, k in table.items()}


@cache
def _rank(suits: bool) -> dict[int, int]:
    """Each key's place in :func:`key_order`."""
    keys = key_order(suits)
    return dict(zip(keys, range(len(keys)), strict=True))


@cache
def _positions(n: int) -> dict[int, tuple[int, ...]]:
    """The positions of every 3- and 5-card mask of ``n`` positions (rows, and a front beside them)."""
    out: dict[int, tuple[int, ...]] = {}
    for size in (3, 5):
        out.update(zip(subset_masks(n, size)[0], combinations(range(n), size), strict=True))
    return out


class Layout:
    """What hands of ``n`` cards need to pack their ``size``-card rows: the subsets' masks in
    ``combinations`` order, and the key tables of :mod:`games.engine.poker` turned into
    ranks already shifted past the mask. Built once per (n, size, suits): :func:`layout`."""

    def __init__(self, n: int, size: int, suits: bool) -> None:
        self.n, self.size, self.suits = n, size, suits
        self.keys = key_order(suits)
        if len(self.keys).bit_length() + n > 32:
            raise ValueError("packed rows must fit in 32 bits")
        rank = _rank(suits)
        self.masks, self.place = subset_masks(n, size)
        if size == 3:
            self.plain, self.flush = _ranks(PLAIN3, rank, n), {}
        elif suits:
            self.plain, self.flush = _ranks(PLAIN5, rank, n), _ranks(FLUSH5, rank, n)
        else:  # no suits: straights need no patch, so no negative keys
            self.plain = {p: rank[abs(k)] << n for p, k in PLAIN5.items()}
            self.flush = _ranks(FLUSH5, rank, n)
        self.low = (1 << n) - 1
        self.positions = _positions(n)

    def rows(self, cards: list[int]) -> Rows:
        """The rows of one hand (``len(cards) == n``), packed and sorted, with their bitsets."""
        primes = [CARD_PRIME[c] for c in cards]
        plain = self.plain
        if self.size == 3:
            keyed = [plain[a * b * c] for a, b, c in combinations(primes, 3)]
        else:
            keyed = [plain[a * b * c * d * e] for a, b, c, d, e in combinations(primes, 5)]
        packed = list(map(or_, keyed, self.masks))
        if self.size == 5:
            self._patch(cards, packed)
        packed.sort()
        return Rows(self, packed)

    def _patch(self, cards: list[int], packed: list[int]) -> None:
        """Give the straights their suit (``suits``) and key the one-suit rows as flushes."""
        n, place = self.n, self.place
        by_rank: list[list[int]] = [[] for _ in range(13)]
        by_suit: list[list[int]] = [[], [], [], []]
        for j, c in enumerate(cards):
            by_rank[c >> 2].append(j)
            by_suit[c & 3].append(j)
        if self.suits:
            for ranks in _STRAIGHTS:
                if all(by_rank[r] for r in ranks):
                    for combo in product(*(by_rank[r] for r in ranks)):
                        mask = sum(1 << j for j in combo)
                        i = place[mask]
                        suit = cards[combo[-1]] & 3  # the top card's
                        packed[i] = (mask - packed[i] + (suit << n)) | mask  # -(rank << n) | mask == mask - (rank << n)
        for suit, same in enumerate(by_suit):
            for combo in combinations(same, 5):
                mask = sum(1 << j for j in combo)
                shifted = self.flush[prime_product([cards[j] >> 2 for j in combo])]
                packed[place[mask]] = (shifted + (suit << n if self.suits else 0)) | mask


#: The ranks of each straight, top card last (the wheel's top is its five).
_STRAIGHTS = [(12, 0, 1, 2, 3)] + [tuple(range(r, r + 5)) for r in range(9)]
#: ``_HOLDS[j][b]`` is ``b"1"`` when bit ``j`` of byte ``b`` is set, else ``b"0"``.
_HOLDS = [bytes(48 + (b >> j & 1) for b in range(256)) for j in range(8)]
#: Where byte ``t`` of a packed row sits in its 4-byte ``array("I")`` item once all the
#: bytes are reversed.
_LANE = [3 - t if sys.byteorder == "little" else t for t in range(4)]


def _holding(packed: list[int], n: int) -> list[int]:
    """For each of the ``n`` cards, the bitset of the places in ``packed`` whose row holds it.

    The rows go into bytes (``array("I")``, reversed: the last row first, as ``int(..., 2)``
    reads its top bit first); one slice picks byte ``t`` of every row (mask bits ``8t`` to
    ``8t + 7``), ``translate`` turns it into ``0``/``1`` digits for one card and ``int(..., 2)``
    reads the bitset: all in C, no Python loop over the rows.
    """
    raw = array("I", packed)
    if raw.itemsize != 4:  # pragma: no cover
        raise RuntimeError("array('I') must hold 4 bytes")
    data = raw.tobytes()[::-1]
    lanes = [data[_LANE[t] :: 4] for t in range((n + 7) // 8)]
    return [int(lanes[j >> 3].translate(_HOLDS[j & 7]), 2) for j in range(n)]


class Rows:
    """One hand's rows: ``packed`` ascending (``rank << n | mask``), and for each card the
    bitset of the places in ``packed`` whose row holds it (bit ``i`` for ``packed[i]``)."""

    def __init__(self, layout: Layout, packed: list[int]) -> None:
        self.packed = packed
        self.shift, self.low, self.keys = layout.n, layout.low, layout.keys
        self.positions = layout.positions
        self.holding = _holding(packed, layout.n)
        self.every = (1 << len(packed)) - 1

    def key(self, v: int) -> int:
        """The row key of a packed row."""
        return self.keys[v >> self.shift]

    def mask(self, v: int) -> int:
        """The card mask of a packed row."""
        return v & self.low

    def touching(self, used: int) -> int:
        """The bitset of the rows holding any card of ``used`` (3 or 5 cards: one lookup)."""
        spots = self.positions.get(used)
        if spots is not None:
            return reduce(or_, map(self.holding.__getitem__, spots))
        holding, out = self.holding, 0
        while used:
            low = used & -used
            out |= holding[low.bit_length() - 1]
            used ^= low
        return out

    def without(self, used: int) -> int:
        """The bitset of the rows sharing no card with ``used``."""
        return self.every ^ self.touching(used)

    def up_to(self, v: int) -> int:
        """The bitset of the rows whose key is at most the key of packed row ``v``."""
        return (1 << bisect_right(self.packed, v | self.low)) - 1


@cache
def layout(n: int, size: int, suits: bool) -> Layout:
    """The :class:`Layout` for ``size``-card rows of ``n``-card hands, built once."""
    return Layout(n, size, suits)
