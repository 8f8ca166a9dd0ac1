"""Opponent models the solver maximises against (docs/SOLVER.md, "Objective").

Both are built from the rows that realistic opponents play, measured by simulation
(``bench/build_tables.py``) and shipped as small JSON files in ``data/``:

* ``thirteen.json``: for each row position the distribution of opponents' row keys
  (suits on). :class:`ThirteenModel` turns it into one number per key and position,
  the expected units that row earns against one opponent's row (docs/RULES.md section 1,
  "Scoring between two ordinary hands", bonus rows included). A thirteen hand's
  expected score is the sum of its three rows' numbers — exactly, by linearity.
* ``trio.json``: the same marginals (suits off) plus the *copula* of an opponent's three
  rows (how their strengths move together) on a grid, and ``home_run_q``, the chance
  that an opponent who shoots us also shoots the third player. :class:`TrioModel`
  gives P(we shoot one opponent), P(it shoots us) and so the expected 墩 of a hand.
"""

from __future__ import annotations

import json
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterable
from functools import cache
from importlib import resources
from itertools import accumulate
from typing import Any, TypeVar

from games.engine.solver.evaluate import FLUSH, PLAIN, THREE
from games.engine.thirteen.scoring import BACK, FRONT, MIDDLE, row_value

V = TypeVar("V")

POSITIONS = ("front", "middle", "back")


def load(name: str) -> dict[str, Any]:
    """A shipped table (``data/<name>.json``)."""
    text = resources.files("games.engine.solver").joinpath("data", f"{name}.json").read_text()
    data: dict[str, Any] = json.loads(text)
    return data


def key_universe(row: int, suits: bool) -> list[int]:
    """Every key a row at position ``row`` can have (fronts: 3-card keys)."""
    if row == FRONT:
        return sorted(set(THREE.values()))
    plain = {abs(k) for k in PLAIN.values()}
    flush = set(FLUSH.values())
    if not suits:
        return sorted(plain | flush)
    straights = {k for k in PLAIN.values() if k < 0}
    suited = {-k | s for k in straights for s in range(4)} | {k | s for k in flush for s in range(4)}
    return sorted((plain - {-k for k in straights}) | suited)


class Marginal:
    """One row position's distribution of opponents' keys: ``P(X < k)``, ``P(X <= k)``."""

    def __init__(self, counts: Iterable[tuple[int, int]]) -> None:
        pairs = sorted((int(k), int(n)) for k, n in counts)
        total = sum(n for _, n in pairs)
        self.keys = [k for k, _ in pairs]
        self.probs = [n / total for _, n in pairs]
        self.cum = [0.0, *accumulate(self.probs)]

    def below(self, key: int) -> float:
        return self.cum[bisect_left(self.keys, key)]

    def at_most(self, key: int) -> float:
        return self.cum[bisect_right(self.keys, key)]

    def odds(self, key: int) -> tuple[float, float]:
        return self.below(key), self.at_most(key)


def _row_table(row: int, marginal: Marginal, value: Callable[[int, int], int], suits: bool) -> dict[int, float]:
    """Expected units of a row with each key against one opponent's row at ``row``."""
    paid = [p * value(row, k) for k, p in zip(marginal.keys, marginal.probs, strict=True)]
    paid_above = [*accumulate(reversed(paid))][::-1] + [0.0]  # sum over keys at index >= i
    table = {}
    for key in key_universe(row, suits):
        win = marginal.below(key) * value(row, key)
        table[key] = win - paid_above[bisect_right(marginal.keys, key)]
    return table


class ThirteenModel:
    """Per-row expected units in ``thirteen`` (suits on): ``front[key]``, ``middle[key]``, ``back[key]``."""

    def __init__(self, data: dict[str, Any]) -> None:
        rows = data["rows"]
        self.front = _row_table(FRONT, Marginal(rows["front"]), row_value, True)
        self.middle = _row_table(MIDDLE, Marginal(rows["middle"]), row_value, True)
        self.back = _row_table(BACK, Marginal(rows["back"]), row_value, True)
        self._front_keys = sorted(self.front)
        self._front_values = [self.front[key] for key in self._front_keys]
        #: :meth:`front_cap` by key, filled in as the searches ask.
        self.caps = _Memo(self.front_cap)

    def front_cap(self, key: int) -> float:
        """The value of the strongest front whose key is at most ``key`` (a bound: a front
        can be no stronger than the middle above it)."""
        i = bisect_right(self._front_keys, key)
        return self._front_values[i - 1] if i else float("-inf")


class _Memo(dict[int, V]):
    """``key -> fn(key)``, each computed once, on first use (a subscript, not a call: the
    searches read these in their inner loops)."""

    def __init__(self, fn: Callable[[int], V]) -> None:
        super().__init__()
        self.fn = fn

    def __missing__(self, key: int) -> V:
        value = self[key] = self.fn(key)
        return value


class Copula:
    """``P(U_f <= a, U_m <= b, U_b <= c)`` and ``P(U_f >= a, U_m >= b, U_b >= c)`` of an
    opponent's three row ranks (each uniform on 0..1), trilinear on a ``grid``³ histogram."""

    def __init__(self, grid: int, counts: list[int]) -> None:
        self.g = grid
        n = grid + 1
        total = sum(counts)
        low = [0.0] * n**3
        high = [0.0] * n**3
        for i in range(grid):
            for j in range(grid):
                for k in range(grid):
                    c = counts[(i * grid + j) * grid + k] / total
                    low[((i + 1) * n + j + 1) * n + k + 1] += c
                    high[(i * n + j) * n + k] += c
        self.low = _cumulate(low, n, 1)
        self.high = _cumulate(high, n, -1)

    def at_most(self, a: float, b: float, c: float) -> float:
        return _trilinear(self.low, self.g, a, b, c)

    def at_least(self, a: float, b: float, c: float) -> float:
        return _trilinear(self.high, self.g, a, b, c)


def _cumulate(cells: list[float], n: int, step: int) -> list[float]:
    """Running sums along the three axes (``step`` 1: from 0 up; -1: from the top down)."""
    out = list(cells)
    indices = range(n**3) if step == 1 else range(n**3 - 1, -1, -1)
    edge = 0 if step == 1 else n - 1
    for stride in (n * n, n, 1):
        for idx in indices:
            if (idx // stride) % n != edge:
                out[idx] += out[idx - step * stride]
    return out


def _trilinear(cum: list[float], g: int, a: float, b: float, c: float) -> float:
    n = g + 1
    (i, fx), (j, fy), (k, fz) = _cell(a, g), _cell(b, g), _cell(c, g)
    return _blend(cum, (i * n + j) * n + k, n, fx, fy, fz)


def _cell(u: float, g: int) -> tuple[int, float]:
    """The cell of ``u`` (0..1) on an axis of ``g`` cells, and where in the cell it falls."""
    x = u * g
    i = min(int(x), g - 1)
    return i, x - i


def _blend(cum: list[float], base: int, n: int, fx: float, fy: float, fz: float) -> float:
    """Trilinear interpolation of ``cum`` (an ``n``³ grid) in the cell at ``base``."""
    nn = n * n
    c00 = cum[base] + (cum[base + 1] - cum[base]) * fz
    c01 = cum[base + n] + (cum[base + n + 1] - cum[base + n]) * fz
    c10 = cum[base + nn] + (cum[base + nn + 1] - cum[base + nn]) * fz
    c11 = cum[base + nn + n] + (cum[base + nn + n + 1] - cum[base + nn + n]) * fz
    c0 = c00 + (c01 - c00) * fy
    c1 = c10 + (c11 - c10) * fy
    return c0 + (c1 - c0) * fx


class _Cells(dict[int, tuple[int, float, int, float]]):
    """``key -> (offset, fraction, offset, fraction)``: where ``P(X <= key)``, then ``P(X < key)``,
    fall on one row's axis of the copula grid (the offset already times the axis' stride),
    as :func:`_trilinear` would find them; computed once per key."""

    def __init__(self, odds: _Memo[tuple[float, float]], g: int, stride: int) -> None:
        super().__init__()
        self.odds, self.g, self.stride = odds, g, stride

    def __missing__(self, key: int) -> tuple[int, float, int, float]:
        below, at_most = self.odds[key]
        (i, fi), (j, fj) = _cell(at_most, self.g), _cell(below, self.g)
        value = self[key] = (i * self.stride, fi, j * self.stride, fj)
        return value


class TrioModel:
    """Expected 墩 of an arrangement in ``thirteen_trio`` against two realistic opponents."""

    def __init__(self, data: dict[str, Any]) -> None:
        rows = data["rows"]
        self.marg = []
        for row, name in enumerate(POSITIONS):
            # ``key -> (P(X < key), P(X <= key))``, every key of the row at once, others (a
            # 5-card key standing in as a bound for a front) as they are asked for
            table = _Memo(Marginal(rows[name]).odds)
            table.update((k, table.fn(k)) for k in key_universe(row, False))
            self.marg.append(table)
        self.copula = Copula(data["grid"], data["copula"])
        self.q = float(data["home_run_q"])
        g, n = self.copula.g, self.copula.g + 1
        self._cells = [_Cells(odds, g, stride) for odds, stride in zip(self.marg, (n * n, n, 1), strict=True)]
        self._q1 = 1 + self.q

    def shoot_odds(self, kf: int, km: int, kb: int) -> tuple[float, float]:
        """``(P(we shoot one opponent), P(it shoots us))``; ties on all three rows neglected."""
        f, m, b = self.marg[0][kf], self.marg[1][km], self.marg[2][kb]
        p = _trilinear(self.copula.low, self.copula.g, f[1], m[1], b[1])
        s = _trilinear(self.copula.high, self.copula.g, f[0], m[0], b[0])
        return p, s

    def value(self, kf: int, km: int, kb: int, specials: int) -> float:
        """Expected net 墩 (docs/RULES.md section 2 "Scoring", "Specials"), two opponents:
        shoots 2p − 2s, our home run 2p², theirs −2qs, each special 2. The same arithmetic as
        :meth:`shoot_odds`, with each key's place on the grid looked up once."""
        cells, n = self._cells, self.copula.g + 1
        f, m, b = cells[0][kf], cells[1][km], cells[2][kb]
        p = _blend(self.copula.low, f[0] + m[0] + b[0], n, f[1], m[1], b[1])
        s = _blend(self.copula.high, f[2] + m[2] + b[2], n, f[3], m[3], b[3])
        return 2 * (p + p * p - self._q1 * s + specials)


@cache
def thirteen_model() -> ThirteenModel:
    """The shipped ``thirteen`` model, loaded once."""
    return ThirteenModel(load("thirteen"))


@cache
def trio_model() -> TrioModel:
    """The shipped ``thirteen_trio`` model, loaded once."""
    return TrioModel(load("trio"))
