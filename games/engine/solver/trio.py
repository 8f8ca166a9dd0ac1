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
the exact optimum of the model. The rows are keyed once per hand, in key order, with a
bitset per card (:mod:`~games.engine.solver.rows`): the middles under a back, and the
strongest front left under a middle, are read off without scanning past the rows that
share their cards.

>>> from games.engine.cards import cards_str, parse_card, parse_cards
>>> hand = parse_cards("6s 6d 6c 2h 3h 4h 8h Jh As Ad Kd Qc 9s 9d 7c 5c Tc".split())
>>> best = solve_trio(hand, parse_card("6h"))[0]
>>> cards_str(best["front"])          # the jackpot trips go in front: 衝三 + 彩金
['6s', '6c', '6d']
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

from games.engine.errors import EngineError
from games.engine.poker import QUADS, TRIPS, category
from games.engine.solver.evaluate import key3
from games.engine.solver.model import TrioModel, trio_model
from games.engine.solver.rows import layout
from games.engine.solver.search import TopK, record

HAND = 17
_FIVES = layout(HAND, 5, False)  # backs and middles, no suits
_THREES = layout(HAND, 3, False)  # fronts, in the same key order
_LOW = (1 << HAND) - 1

Front = tuple[int, int, int]  # (key, mask, specials) of a front fixed in advance


class _Hand:
    """The 17 cards, their rows in key order, and what specials they can make."""

    def __init__(self, cards: list[int], jackpot: int) -> None:
        self.cards = cards
        self.five = _FIVES.rows(cards)
        self.three = _THREES.rows(cards)
        self.keys = self.five.keys
        partners = [i for i, c in enumerate(cards) if c >> 2 == jackpot >> 2]
        self.jp = sum(1 << i for i in partners) if len(partners) == 3 else 0
        self.jp_key = key3([cards[i] for i in partners]) if self.jp else _NEVER
        self.big = category(self.keys[self.five.packed[-1] >> HAND]) >= QUADS

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
        spare = self.three.without(used)
        return self.keys[self.three.packed[spare.bit_length() - 1] >> HAND]


_NEVER = 1 << 40


class _Search:
    """Branch and bound over backs, then middles, strongest first (see the module doc)."""

    def __init__(self, hand: _Hand, model: TrioModel, k: int) -> None:
        self.hand, self.model, self.top = hand, model, TopK(k)

    def front(self, taken: int, middle: int) -> Front | None:
        """The strongest front no stronger than the packed ``middle`` among the fronts not in
        ``taken`` (a bitset over the hand's fronts: those sharing a card with the back or the
        middle), with its specials; ``None`` when every front left is stronger."""
        three = self.hand.three
        legal = three.up_to(middle) & ~taken
        if not legal:
            return None
        row = three.packed[legal.bit_length() - 1]
        key, mask = self.hand.keys[row >> HAND], row & _LOW
        return key, mask, int(category(key) == TRIPS) + (mask == self.hand.jp)

    def middles(self, kb: int, bm: int, weaker: int, sb: int, front: Front | None) -> None:
        """Every useful middle under the back ``bm`` (``weaker``: the bitset of the rows no
        stronger than it), strongest first, with ``front`` fixed, if given."""
        hand, value, top = self.hand, self.model.value, self.top
        five, keys, packed = hand.five, hand.keys, hand.five.packed
        used = bm | (front[1] if front else 0)
        f_top = front[0] if front else hand.front_top(used)
        floor_key = front[0] if front else -1
        sf_fixed = front[2] if front else 0
        spare = weaker & ~five.touching(bm)
        if front:
            spare &= ~five.touching(front[1])
        taken = 0 if front else hand.three.touching(bm)
        rank, bound = -1, 0.0
        while spare:
            i = spare.bit_length() - 1
            spare ^= 1 << i
            middle = packed[i]
            km, mm = keys[middle >> HAND], middle & _LOW
            if km < floor_key:
                break
            if middle >> HAND != rank:  # the bound depends on the middle's key only
                rank = middle >> HAND
                bound = value(min(f_top, km), km, kb, 0) + 2 * (sb + sf_fixed + hand.room(km, used))
            if bound <= top.floor:
                break
            sm = sb + hand.special5(km, mm)
            made = front or self.front(taken | hand.three.touching(mm), middle)
            if made:
                kf, fm, sf = made
                top.offer(value(kf, km, kb, sm + sf), (kf, km, kb), (fm, mm, bm))

    def backs(self, front: Front | None = None) -> None:
        """Every useful back (with ``front`` fixed, if given)."""
        hand, value, top = self.hand, self.model.value, self.top
        keys, packed = hand.keys, hand.five.packed
        used = front[1] if front else 0
        f_top = front[0] if front else keys[hand.three.packed[-1] >> HAND]
        m_top = keys[packed[-1] >> HAND]
        base = front[2] if front else 0
        end, rank, bound = len(packed), -1, 0.0  # packed[:end]: the rows no stronger than the back
        for place in range(len(packed) - 1, -1, -1):
            back = packed[place]
            kb = keys[back >> HAND]
            if kb < (front[0] if front else -1):
                break
            if back >> HAND != rank:  # the bound depends on the back's key only
                rank, end = back >> HAND, place + 1
                km = min(kb, m_top)
                bound = value(min(f_top, km), km, kb, 0) + 2 * (base + 2 * hand.room(kb, used))
            if bound <= top.floor:
                break
            bm = back & _LOW
            if bm & used:
                continue
            self.middles(kb, bm, (1 << end) - 1, hand.special5(kb, bm), front)


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
