"""The ``thirteen`` solver: 13 cards into front 3 / middle 5 / back 5 (docs/RULES.md section 1).

It maximises the expected units against one realistic opponent (the sum of the three
rows' values from :class:`~games.engine.solver.model.ThirteenModel`; against several
opponents the pair results add up, so the same rows are best), never fouls, and
declares a natural when it is worth at least as much as the best rows (docs/RULES.md
"Naturals", docs/SOLVER.md "Naturals").

Search: backs strongest first, and under each back the middles strongest first (the
front is then the three cards left). A row's value only grows with its key, so
``value(back) + value(strongest middle allowed) + value(best front anywhere)`` bounds
everything still unseen and both loops stop as soon as the bound cannot beat the k-th
best arrangement found. The result is the exact optimum of the model.

Greedy would play the aces full in the back; against realistic opponents the straight
back, aces up in the middle and kings in front are worth more:

>>> from games.engine.cards import parse_cards, cards_str
>>> best = solve_thirteen(parse_cards("As Ah Kd Kc 7s 7h 7d 4c 5d 6h 8s 9c 2d".split()))[0]
>>> [cards_str(best[r]) for r in ("front", "middle", "back")], best["declare"]
([['Kc', 'Kd', '2d'], ['As', 'Ah', '7s', '7h', '4c'], ['9c', '8s', '7d', '6h', '5d']], False)
"""

from __future__ import annotations

from bisect import bisect_left
from itertools import islice
from typing import Any

from games.engine.errors import EngineError
from games.engine.solver.evaluate import fives, sorted_desc, threes
from games.engine.solver.model import ThirteenModel, thirteen_model
from games.engine.solver.search import TopK, record
from games.engine.thirteen.naturals import NATURAL_VALUES, best_natural

_FULL = (1 << 13) - 1


def search_thirteen(cards: list[int], model: ThirteenModel, k: int) -> TopK:
    """The ``k`` best legal arrangements (distinct row keys) under ``model``."""
    five = sorted_desc(fives(cards, True))
    neg = [-key for key, _ in five]
    front = {mask: key for key, mask in threes(cards)}
    vf, vm, vb = model.front, model.middle, model.back
    cap = model.front_cap
    front_top = max(vf[key] for key in front.values())
    top = TopK(k)
    for kb, bm in five:
        tb = vb[kb]
        if tb + vm[kb] + min(front_top, cap(kb)) <= top.floor:
            break
        for km, mm in islice(five, bisect_left(neg, -kb), None):
            if mm & bm:
                continue
            tm = tb + vm[km]
            if tm + min(front_top, cap(km)) <= top.floor:
                break
            fm = _FULL ^ bm ^ mm
            kf = front[fm]
            if kf <= km:
                top.offer(tm + vf[kf], (kf, km, kb), (fm, mm, bm))
    return top


def declares(natural: str, rows_value: float) -> bool:
    """Whether to declare ``natural`` rather than play rows worth ``rows_value`` (the model's
    expected units of the best rows): when the natural's value is at least that much
    (docs/SOLVER.md "Naturals")."""
    return NATURAL_VALUES[natural] >= rows_value


def solve_thirteen(cards: list[int], k: int = 3) -> list[dict[str, Any]]:
    """The best arrangement of 13 cards and up to ``k - 1`` distinct alternatives, best first
    (docs/RULES.md section 1 "Rows", "Scoring", "Naturals"; docs/SOLVER.md).

    Each is ``{"front": [3], "middle": [5], "back": [5], "declare": bool, "score": float}``
    with card ints, rows highest card first. ``score`` is the expected units against one
    realistic opponent. When the cards hold a natural worth at least the best rows'
    ``score`` (:func:`declares`), every entry declares it, its rows for show, and ``score``
    is the natural's value; otherwise the entries play rows and none declares.
    """
    if len(cards) != 13 or len(set(cards)) != 13 or not all(0 <= c < 52 for c in cards):
        raise EngineError("cards: expected 13 different cards")
    if k < 1:
        raise EngineError("k: expected at least 1")
    cards = list(cards)
    best = search_thirteen(cards, thirteen_model(), k).best()
    natural = best_natural(cards)
    if natural is not None and declares(natural, best[0][0]):
        value = float(NATURAL_VALUES[natural])
        return [record(cards, masks, declare=True, score=value) for _, _, masks in best]
    return [record(cards, masks, declare=False, score=v) for v, _, masks in best]
