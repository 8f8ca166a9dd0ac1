"""Scoring of ``thirteen`` hands in units (docs/RULES.md section 1: "Rows", "Scoring between two
ordinary hands", bonus rows, "Naturals", "Fouls", "Comparison order").

A scored hand is a :class:`Hand`: its three row keys (:mod:`games.engine.poker`, with
suits), whether it is fouled, and the natural it declared (when the declaration holds).

>>> from games.engine.cards import parse_cards
>>> def h(front, middle, back):
...     return ordinary_hand(*(parse_cards(r.split()) for r in (front, middle, back)))
>>> quads_sweep = h("Ah Ad 2c", "Kh Kd Qs Qc 3d", "9s 9h 9d 9c 4s")
>>> weak = h("7h 5d 3c", "Js Td 8h 6h 4c", "Qh Jh Tc 8c 5s")
>>> pair_units(quads_sweep, weak)[0]      # docs/RULES.md: a sweep whose back is quads earns 6
6
>>> fouled = h("As Ac 2d", "7s 6d 5h 3h 2h", "Ks Qd Jd Ts 8d")
>>> fouled.fouled, pair_units(fouled, quads_sweep)[0]   # a foul against back quads pays 6
(True, -6)
>>> comparison_order(4, 2)
[(2, 3), (2, 0), (2, 1), (3, 0), (3, 1), (0, 1)]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from games.engine.poker import FULL_HOUSE, QUADS, STRAIGHT_FLUSH, TRIPS, category, is_royal, rank3, rank5
from games.engine.thirteen.naturals import NATURAL_VALUES, natural_rank

ROWS = ("front", "middle", "back")
FRONT, MIDDLE, BACK = 0, 1, 2


@dataclass(frozen=True)
class Hand:
    """A hand ready to score: ``keys`` (front, middle, back) or None for a declared hand."""

    keys: tuple[int, int, int] | None
    fouled: bool
    natural: str | None = None


def row_keys(front: Sequence[int], middle: Sequence[int], back: Sequence[int]) -> tuple[int, int, int]:
    """The three row keys, suits breaking ties as docs/RULES.md section 1 says."""
    return rank3(front, suits=True), rank5(middle, suits=True), rank5(back, suits=True)


def is_fouled(keys: tuple[int, int, int]) -> bool:
    """docs/RULES.md "Rows": back ≥ middle ≥ front is required; equal is allowed."""
    return not keys[FRONT] <= keys[MIDDLE] <= keys[BACK]


def ordinary_hand(front: Sequence[int], middle: Sequence[int], back: Sequence[int]) -> Hand:
    """An arranged (undeclared) hand; fouled when its rows are out of order."""
    keys = row_keys(front, middle, back)
    return Hand(keys=keys, fouled=is_fouled(keys))


def declared_hand(natural: str | None) -> Hand:
    """A declared hand: the natural that counts, or a foul when there is none."""
    return Hand(keys=None, fouled=natural is None, natural=natural)


def row_value(row: int, key: int) -> int:
    """What winning ``row`` with ``key`` earns: the bonus-row table, else 1 (docs/RULES.md)."""
    cat = category(key)
    if row == FRONT:
        return 3 if cat == TRIPS else 1
    if cat == STRAIGHT_FLUSH:
        if is_royal(key):
            return 14 if row == MIDDLE else 7
        return 10 if row == MIDDLE else 5
    if cat == QUADS:
        return 8 if row == MIDDLE else 4
    if cat == FULL_HOUSE and row == MIDDLE:
        return 2
    return 1


def sweep_value(keys: tuple[int, int, int]) -> int:
    """What a fouled hand pays this hand: each row 1 unit or that row's bonus instead."""
    return sum(row_value(row, key) for row, key in enumerate(keys))


def _versus_natural(a: Hand, b: Hand) -> tuple[int, str]:
    if a.natural and b.natural:
        ra, rb = natural_rank(a.natural), natural_rank(b.natural)
        if ra == rb:
            return 0, "natural"
        return (NATURAL_VALUES[a.natural] if ra < rb else -NATURAL_VALUES[b.natural]), "natural"
    if a.natural:
        return NATURAL_VALUES[a.natural], "natural"
    assert b.natural is not None
    return -NATURAL_VALUES[b.natural], "natural"


def _rows(a: Hand, b: Hand) -> tuple[int, list[int]]:
    assert a.keys is not None and b.keys is not None
    rows = []
    for row, (ka, kb) in enumerate(zip(a.keys, b.keys, strict=True)):
        rows.append(row_value(row, ka) if ka > kb else -row_value(row, kb) if kb > ka else 0)
    return sum(rows), rows


def pair_units(a: Hand, b: Hand) -> tuple[int, dict[str, Any]]:
    """Units ``a`` wins from ``b`` (negative: ``a`` pays), with the details of how.

    Order of the rules: naturals first (natural vs natural: the higher rank wins its own
    value, equal rank ties; natural vs anything else: its value), then fouls (two fouled
    hands: 0; a fouled hand pays the other a sweep with its bonus rows), then row by row.
    """
    if a.natural or b.natural:
        units, kind = _versus_natural(a, b)
        return units, {"kind": kind, "rows": None}
    if a.fouled or b.fouled:
        if a.fouled and b.fouled:
            return 0, {"kind": "foul", "rows": None}
        if b.fouled:
            assert a.keys is not None
            return sweep_value(a.keys), {"kind": "foul", "rows": None}
        assert b.keys is not None
        return -sweep_value(b.keys), {"kind": "foul", "rows": None}
    units, rows = _rows(a, b)
    return units, {"kind": "rows", "rows": rows}


def comparison_order(players: int, dealer: int) -> list[tuple[int, int]]:
    """docs/RULES.md "Comparison order": (d,d+1), (d,d+2), …, (d+1,d+2), … clockwise from the dealer."""
    seats = [(dealer + k) % players for k in range(players)]
    return [(seats[i], seats[j]) for i in range(players) for j in range(i + 1, players)]


def score_units(hands: Sequence[Hand], dealer: int = 0) -> tuple[list[int], list[dict[str, Any]]]:
    """Net units per seat and the per-pair details, pairs in comparison order."""
    net = [0] * len(hands)
    pairs = []
    for a, b in comparison_order(len(hands), dealer):
        units, detail = pair_units(hands[a], hands[b])
        net[a] += units
        net[b] -= units
        pairs.append({"seats": [a, b], "units": units, **detail})
    return net, pairs
