"""Batch row evaluation with numpy, for the benchmarks (``bench/eval5.py``) and offline
analysis; not part of the platform.

:func:`rank5_batch` / :func:`rank3_batch` return, for an ``(n, 5)`` / ``(n, 3)`` array of card
ints, exactly the keys :func:`games.engine.poker.rank5` / :func:`~games.engine.poker.rank3`
give one hand at a time (same key space and suit tie-breaks; tested equal). The engines
never import this module: numpy is not allowed under ``games/engine``. The repository root
must be on the import path (the benchmark scripts put it there).

How: sorting a hand's five ranks gives a multiset, whose index in the combinatorial number
system (``C(r0,1) + C(r1+1,2) + … + C(r4+4,5)``, 0..6187) picks the key from two
tables (one-suit rows and the rest), re-indexed from :mod:`games.engine.poker`'s own tables
(the same primes, the same build).

>>> import numpy as np
>>> from games.engine.cards import parse_cards
>>> hands = np.array([parse_cards("As Ks Qs Js Ts".split()), parse_cards("5d 4c 3h 2s As".split())])
>>> from games.engine.poker import rank5
>>> [int(k) for k in rank5_batch(hands, suits=True)] == [rank5(h, suits=True) for h in hands.tolist()]
True
"""

from __future__ import annotations

from itertools import combinations_with_replacement
from math import comb

import numpy as np
import numpy.typing as npt

from games.engine.poker import FLUSH5, PLAIN3, PLAIN5, TOP_SHIFT, prime_product


def _binomials(width: int) -> npt.NDArray[np.int32]:
    """``B[i][r] = C(r + i, i + 1)``: the combinatorial number system for sorted ranks."""
    return np.array([[comb(r + i, i + 1) for r in range(13)] for i in range(width)], dtype=np.int32)


def _index(ranks: tuple[int, ...]) -> int:
    return sum(comb(r + i, i + 1) for i, r in enumerate(sorted(ranks)))


def _tables() -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    plain = np.zeros(comb(17, 5), dtype=np.int64)
    flush = np.zeros(comb(17, 5), dtype=np.int64)
    for ranks in combinations_with_replacement(range(13), 5):
        p = prime_product(ranks)
        plain[_index(ranks)] = PLAIN5.get(p, 0)
        flush[_index(ranks)] = FLUSH5.get(p, 0)
    three = np.zeros(comb(15, 3), dtype=np.int64)
    for ranks in combinations_with_replacement(range(13), 3):
        three[_index(ranks)] = PLAIN3[prime_product(ranks)]
    return plain, flush, three


_B5 = _binomials(5)
_B3 = _binomials(3)
_PLAIN, _FLUSH, _THREE = _tables()


# Optimal sorting networks: compare-exchange pairs that sort 3 or 5 columns.
_NETWORKS = {
    3: ((0, 1), (1, 2), (0, 1)),
    5: ((0, 1), (3, 4), (2, 4), (2, 3), (0, 3), (0, 2), (1, 4), (1, 3), (1, 2)),
}


def _multiset_index(ranks: npt.NDArray[np.int8], binomials: npt.NDArray[np.int32]) -> npt.NDArray[np.int32]:
    """Index of each row's rank multiset (``ranks`` is one row per column, int8); the
    columns are sorted by a sorting network, vectorised over all rows."""
    cols = list(ranks)
    for a, b in _NETWORKS[len(cols)]:
        cols[a], cols[b] = np.minimum(cols[a], cols[b]), np.maximum(cols[a], cols[b])
    idx = binomials[0][cols[0]]
    for i in range(1, len(cols)):
        idx += binomials[i][cols[i]]
    return idx


def rank5_batch(cards: npt.ArrayLike, *, suits: bool) -> npt.NDArray[np.int64]:
    """Keys of ``n`` five-card rows, equal to ``poker.rank5(row, suits=suits)`` for each row."""
    c = np.asarray(cards, dtype=np.int8)
    t = np.ascontiguousarray(c.T)
    s = t & 3
    idx = _multiset_index(t >> 2, _B5)
    flush = (s[0] == s[1]) & (s[0] == s[2]) & (s[0] == s[3]) & (s[0] == s[4])
    key = np.where(flush, _FLUSH[idx], _PLAIN[idx])
    straight = key < 0
    key = np.abs(key)
    if suits:
        key |= np.where(flush, s[0], 0)
        if straight.any():
            top = ((key >> TOP_SHIFT) & 15).astype(np.int8)
            ranks = t >> 2
            top_suit = sum(np.where(ranks[i] == top, s[i], 0) for i in range(5))
            key |= np.where(straight, top_suit, 0)
    return key


def rank3_batch(cards: npt.ArrayLike) -> npt.NDArray[np.int64]:
    """Keys of ``n`` three-card fronts, equal to ``poker.rank3(row, suits=...)`` for each row."""
    t = np.ascontiguousarray(np.asarray(cards, dtype=np.int8).T)
    result: npt.NDArray[np.int64] = _THREE[_multiset_index(t >> 2, _B3)]
    return result
