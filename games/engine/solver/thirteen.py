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
best arrangement found. The result is the exact optimum of the model. The rows are keyed
once per hand, in key order, with a bitset per card (:mod:`~games.engine.solver.rows`), so
the middles under a back are read off directly instead of scanning past the rows that
share its cards.

Greedy would play the aces full in the back; against realistic opponents the straight
back, aces up in the middle and kings in front are worth more:

>>> from games.engine.cards import parse_cards, cards_str
>>> best = solve_thirteen(parse_cards("As Ah Kd Kc 7s 7h 7d 4c 5d 6h 8s 9c 2d".split()))[0]
>>> [cards_str(best[r]) for r in ("front", "middle", "back")], best["declare"]
([['Kc', 'Kd', '2d'], ['As', 'Ah', '7s', '7h', '4c'], ['9c', '8s', '7d', '6h', '5d']], False)
"""

from __future__ import annotations

from typing import Any

from games.engine.errors import EngineError
from games.engine.solver.evaluate import front_keys, subset_masks
from games.engine.solver.model import ThirteenModel, thirteen_model
from games.engine.solver.rows import layout
from games.engine.solver.search import TopK, record
from games.engine.thirteen.naturals import NATURAL_VALUES, best_natural

_FIVES = layout(13, 5, True)  # every back and middle, with suits
_FRONT_MASKS = subset_masks(13, 3)[0]


def search_thirteen(cards: list[int], model: ThirteenModel, k: int) -> TopK:
    """The ``k`` best legal arrangements (distinct row keys) under ``model``."""
    search = _Search(cards, model, k)
    search.backs()
    return search.top


class _Search:
    """Branch and bound over one hand (see the module doc): its rows in key order
    (:mod:`~games.engine.solver.rows`), its fronts by mask, and the ``k`` best so far.
    A packed row is ``rank << 13 | mask``: ``>> 13`` is its place in the key order,
    ``& 8191`` its 13-card mask."""

    def __init__(self, cards: list[int], model: ThirteenModel, k: int) -> None:
        self.rows = rows = _FIVES.rows(cards)
        front = dict(zip(_FRONT_MASKS, front_keys(cards), strict=True))
        front_top = max(map(model.front.__getitem__, front.values()))  # the best front anywhere
        self.model, self.top = model, TopK(k)
        #: What :meth:`middles` reads, in one tuple: it runs for every back.
        self.tables = (rows.keys, rows.packed, model.middle, model.front, model.caps, front, front_top)

    def backs(self) -> None:
        """Backs strongest first, each followed by its middles, until the bound (the back,
        a middle as strong, the best front that allows) cannot beat the k-th best."""
        keys, packed, vm, _, caps, _, front_top = self.tables
        vb, top = self.model.back, self.top
        end, rank = len(packed), -1  # packed[:end]: the rows no stronger than the back
        for place in range(len(packed) - 1, -1, -1):
            back = packed[place]
            if back >> 13 != rank:
                rank, end = back >> 13, place + 1
            kb = keys[rank]
            tb = vb[kb]
            cap = caps[kb]
            if tb + vm[kb] + (front_top if front_top <= cap else cap) <= top.floor:
                return
            self.middles(kb, back & 8191, (1 << end) - 1, tb)

    def middles(self, kb: int, bm: int, weaker: int, tb: float) -> None:
        """Offer the middles under the back ``bm`` (key ``kb``, worth ``tb``; ``weaker``: the
        bitset of the rows no stronger), strongest first: those sharing no card with it, each
        with the three cards left as the front. Stops at the first middle whose bound (it, and
        the best front it allows) cannot beat the k-th best: every later middle is weaker still."""
        keys, packed, vm, vf, caps, front, front_top = self.tables
        top, rest = self.top, 8191 ^ bm
        spare = weaker & ~self.rows.touching(bm)
        floor = top.floor
        while spare:
            i = spare.bit_length() - 1
            spare ^= 1 << i
            middle = packed[i]
            km = keys[middle >> 13]
            tm = tb + vm[km]
            cap = caps[km]
            if tm + (front_top if front_top <= cap else cap) <= floor:
                return
            mm = middle & 8191
            fm = rest ^ mm
            kf = front[fm]
            if kf <= km:
                value = tm + vf[kf]
                if value > floor:
                    top.offer(value, (kf, km, kb), (fm, mm, bm))
                    floor = top.floor


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
