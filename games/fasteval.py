"""Batch row evaluation with numpy, for benchmarks and offline analysis (not the engine).

:func:`rank5_batch` / :func:`rank3_batch` return, for an ``(n, 5)`` / ``(n, 3)`` array of card
ints, exactly the keys :func:`games.engine.poker.rank5` / :func:`~games.engine.poker.rank3`
give one hand at a time (same key space and suit tie-breaks; tested equal). The engines
never import this module: numpy is not allowed under ``games/engine``.

How: sorting a hand's five ranks gives a multiset, whose index in the combinatorial number
system (``C(r0,1) + C(r1+1,2) + … + C(r4+4,5)``, 0..6187) picks the key from two
tables (one-suit rows and the rest) built from :mod:`games.engine.poker` itself.

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

from games.engine.solver.evaluate import FLUSH, PLAIN, THREE

_PRIMES = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41)
_TOP_SHIFT = 18


def _binomials(width: int) -> npt.NDArray[np.int32]:
    """``B[i][r] = C(r + i, i + 1)``: the combinatorial number system for sorted ranks."""
    return np.array([[comb(r + i, i + 1) for r in range(13)] for i in range(width)], dtype=np.int32)


def _product(ranks: tuple[int, ...]) -> int:
    p = 1
    for r in ranks:
        p *= _PRIMES[r]
    return p


def _index(ranks: tuple[int, ...]) -> int:
    return sum(comb(r + i, i + 1) for i, r in enumerate(sorted(ranks)))


def _tables() -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    plain = np.zeros(comb(17, 5), dtype=np.int64)
    flush = np.zeros(comb(17, 5), dtype=np.int64)
    for ranks in combinations_with_replacement(range(13), 5):
        p = _product(ranks)
        plain[_index(ranks)] = PLAIN.get(p, 0)
        flush[_index(ranks)] = FLUSH.get(p, 0)
    three = np.zeros(comb(15, 3), dtype=np.int64)
    for ranks in combinations_with_replacement(range(13), 3):
        three[_index(ranks)] = THREE[_product(ranks)]
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
            top = ((key >> _TOP_SHIFT) & 15).astype(np.int8)
            ranks = t >> 2
            top_suit = sum(np.where(ranks[i] == top, s[i], 0) for i in range(5))
            key |= np.where(straight, top_suit, 0)
    return key


def rank3_batch(cards: npt.ArrayLike) -> npt.NDArray[np.int64]:
    """Keys of ``n`` three-card fronts, equal to ``poker.rank3(row, suits=...)`` for each row."""
    t = np.ascontiguousarray(np.asarray(cards, dtype=np.int8).T)
    result: npt.NDArray[np.int64] = _THREE[_multiset_index(t >> 2, _B3)]
    return result
