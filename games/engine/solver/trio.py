"""The ``thirteen_trio`` solver: 17 cards, the best 13 into front 3 / middle 5 / back 5
(docs/RULES.md section 2 "Arranging", "Scoring (比打槍)", "Specials").

Only shoots and specials pay, so rows are not counted: the objective is the expected
墩 against two realistic opponents, ``2·P(shoot) − 2·P(shot) + 2·P(shoot)² −
2·q·P(shot) + 2·specials`` (:meth:`~games.engine.solver.model.TrioModel.value`), with
P(shoot) and P(shot) read from the opponents' joint row distribution. It never fouls.

Search: backs strongest first; under each back the middles strongest first; the front
is the strongest 3 of the 7 cards left that stays under the middle, or the jackpot
trips. The value only grows with each row's key, so a bound from the strongest
possible rows and the specials still available stops both loops early; the result is
the exact optimum of the model.

>>> from games.engine.cards import cards_str, parse_card, parse_cards
>>> hand = parse_cards("6s 6d 6c 2h 3h 4h 8h Jh As Ad Kd Qc 9s 9d 7c 5c Tc".split())
>>> best = solve_trio(hand, parse_card("6h"))[0]
>>> cards_str(best["front"])          # the jackpot trips go in front: 衝三 + 彩金
['6s', '6c', '6d']
"""

from __future__ import annotations

from bisect import bisect_left
from itertools import combinations, islice
from typing import Any

from games.engine.errors import EngineError
from games.engine.poker import QUADS, TRIPS, category
from games.engine.solver.evaluate import fives, key3, sorted_desc, threes
from games.engine.solver.model import TrioModel, trio_model
from games.engine.solver.search import TopK, record

HAND = 17


class _Hand:
    """The 17 cards, their keyed rows, and what specials they can make."""

    def __init__(self, cards: list[int], jackpot: int) -> None:
        self.cards = cards
        self.five = sorted_desc(fives(cards, False))
        self.neg = [-key for key, _ in self.five]
        self.three = sorted_desc(threes(cards))
        partners = [i for i, c in enumerate(cards) if c >> 2 == jackpot >> 2]
        self.jp = sum(1 << i for i in partners) if len(partners) == 3 else 0
        self.jp_key = key3([cards[i] for i in partners]) if self.jp else _NEVER
        self.big = category(self.five[0][0]) >= QUADS

    def special5(self, key: int, mask: int) -> int:
        """鐵支 / 同花順 in a middle or back, plus 彩金 when the row holds the jackpot trips."""
        return (category(key) >= QUADS) + (self.jp != 0 and (mask & self.jp) == self.jp)

    def room(self, key: int, used: int) -> int:
        """At most how many specials a middle (or back) no stronger than ``key`` can add
        from cards outside ``used``: quads or a straight flush need a row that strong,
        the jackpot trips one at least as strong as them. Fronts are not counted:
        trips fronts are searched on their own (:func:`_forced_fronts`)."""
        quads = self.big and category(key) >= QUADS
        return quads + (self.jp != 0 and not used & self.jp and key >= self.jp_key)

    def front_top(self, used: int) -> int:
        """The strongest front key among cards not in ``used`` (a bound)."""
        return next(key for key, mask in self.three if not mask & used)


_NEVER = 1 << 40


class _Search:
    """Branch and bound over backs, then middles, strongest first (see the module doc)."""

    def __init__(self, hand: _Hand, model: TrioModel, k: int) -> None:
        self.hand, self.model, self.top = hand, model, TopK(k)

    def fronts(self, used: int, km: int) -> list[tuple[int, int, int]]:
        """``(key, mask, specials)``: the strongest legal front of the cards left."""
        for key, mask in self.hand.three:
            if not mask & used and key <= km:
                return [(key, mask, int(category(key) == TRIPS) + (mask == self.hand.jp))]
        return []

    def middles(self, kb: int, bm: int, sb: int, front: tuple[int, int, int] | None) -> None:
        """Every useful middle under the back ``bm`` (with ``front`` fixed, if given)."""
        hand, value, top = self.hand, self.model.value, self.top
        used = bm | (front[1] if front else 0)
        f_top = front[0] if front else hand.front_top(used)
        floor_key = front[0] if front else -1
        sf_fixed = front[2] if front else 0
        for km, mm in islice(hand.five, bisect_left(hand.neg, -kb), None):
            if mm & used:
                continue
            if km < floor_key:
                break
            if value(min(f_top, km), km, kb, 0) + 2 * (sb + sf_fixed + hand.room(km, used)) <= top.floor:
                break
            sm = sb + hand.special5(km, mm)
            for kf, fm, sf in [front] if front else self.fronts(used | mm, km):
                top.offer(value(kf, km, kb, sm + sf), (kf, km, kb), (fm, mm, bm))

    def backs(self, front: tuple[int, int, int] | None = None) -> None:
        """Every useful back (with ``front`` fixed, if given)."""
        hand, value, top = self.hand, self.model.value, self.top
        used = front[1] if front else 0
        f_top = front[0] if front else hand.three[0][0]
        m_top = hand.five[0][0]
        base = front[2] if front else 0
        for kb, bm in hand.five:
            if kb < (front[0] if front else -1):
                break
            km = min(kb, m_top)
            if value(min(f_top, km), km, kb, 0) + 2 * (base + 2 * hand.room(kb, used)) <= top.floor:
                break
            if bm & used:
                continue
            self.middles(kb, bm, hand.special5(kb, bm), front)


def _forced_fronts(hand: _Hand) -> list[tuple[int, int, int]]:
    """Every trips front the hand can make, with its specials (衝三, and 彩金 for the jackpot trips)."""
    by_rank: dict[int, list[int]] = {}
    for i, c in enumerate(hand.cards):
        by_rank.setdefault(c >> 2, []).append(i)
    out = []
    for idx in by_rank.values():
        for trio in combinations(idx, 3):
            mask = sum(1 << i for i in trio)
            out.append((key3([hand.cards[i] for i in trio]), mask, 1 + (mask == hand.jp)))
    return sorted(out, reverse=True)


def search_trio(cards: list[int], jackpot: int, model: TrioModel, k: int) -> TopK:
    """The ``k`` best legal arrangements (distinct row keys) under ``model``."""
    hand = _Hand(cards, jackpot)
    search = _Search(hand, model, k)
    for front in _forced_fronts(hand):
        search.backs(front)
    search.backs()
    return search.top


def solve_trio(cards: list[int], jackpot: int, k: int = 3) -> list[dict[str, Any]]:
    """The best 13 of 17 cards as front 3 / middle 5 / back 5 and up to ``k - 1`` distinct
    alternatives, best first (docs/RULES.md section 2; docs/SOLVER.md).

    Each is ``{"front": [3], "middle": [5], "back": [5], "declare": False, "score": float}``
    (this game has no naturals); ``score`` is the expected net 墩 against two realistic
    opponents. The four cards not listed are the ones left out.
    """
    if len(cards) != HAND or len(set(cards)) != HAND or not all(0 <= c < 52 for c in cards):
        raise EngineError(f"cards: expected {HAND} different cards")
    if not 0 <= jackpot < 52 or jackpot in cards:
        raise EngineError("jackpot: expected a card that is not in the hand")
    if k < 1:
        raise EngineError("k: expected at least 1")
    cards = list(cards)
    top = search_trio(cards, jackpot, trio_model(), k)
    return [record(cards, masks, declare=False, score=v) for v, _, masks in top.best()]
