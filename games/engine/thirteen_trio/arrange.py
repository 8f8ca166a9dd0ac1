"""Auto-arrangement: the rows a timed-out or disconnected seat plays (RULES.md section 2 "Arranging").

:func:`arrange` picks 13 of the 17 cards into front 3 / middle 5 / back 5 and never
fouls. It searches a bounded set of candidate rows and keeps the arrangement with the
best estimate of ``specials + P(shoot) − P(shot)`` against one opponent, where each
row's chance to win its position comes from :data:`STRENGTH` (row category shares of
auto-arranged 17-card hands). Specials (衝三, 鐵支, 同花順, 彩金) pay for certain, so
arrangements that keep them, and jackpot trips in the front, are preferred.

>>> from games.engine.cards import cards_str, parse_cards, parse_card
>>> hand = parse_cards("6s 6d 6c 2h 3h 4h 8h Jh As Ad Kd Qc 9s 9d 7c 5c Tc".split())
>>> rows = arrange(hand, parse_card("6h"))
>>> sorted(cards_str(rows["front"]))     # the jackpot trips go in front: 衝三 + 彩金
['6c', '6d', '6s']
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import combinations

from games.engine import poker
from games.engine.cards import rank_of
from games.engine.errors import EngineError
from games.engine.thirteen_trio.rules import HAND_SIZE

#: Per row position, for each category (HIGH_CARD .. STRAIGHT_FLUSH), the share of
#: opponents' rows at that position below the category and up to its end; a row's
#: chance to win interpolates between the two by its top made rank. Measured on 6,000
#: auto-arranged hands (the shares of this very arrangement, iterated to a fixed point).
# fmt: off
STRENGTH: dict[str, tuple[tuple[float, float], ...]] = {
    "front": (
        (0.0, 0.04), (0.04, 0.635), (0.635, 0.635), (0.635, 1.0),
        (1.0, 1.0), (1.0, 1.0), (1.0, 1.0), (1.0, 1.0), (1.0, 1.0),
    ),
    "middle": (
        (0.0, 0.0), (0.0, 0.002), (0.002, 0.04), (0.04, 0.047), (0.047, 0.327),
        (0.327, 0.818), (0.818, 0.998), (0.998, 1.0), (1.0, 1.0),
    ),
    "back": (
        (0.0, 0.0), (0.0, 0.0), (0.0, 0.001), (0.001, 0.001), (0.001, 0.022),
        (0.022, 0.386), (0.386, 0.843), (0.843, 0.93), (0.93, 1.0),
    ),
}
# fmt: on

_BACKS = 10  # strongest distinct backs tried
_MIDDLES = 8  # strongest distinct middles tried under each back
_PER_SHAPE = 2  # rows kept per made shape (category and top two made ranks)

_QUADS_KEY = poker.QUADS << poker.CAT_SHIFT  # keys from here up are quads or straight flushes

Combo = tuple[int, int]  # (key, bitmask over the 17 card positions)


def _strength(position: str, key: int) -> float:
    lo, hi = STRENGTH[position][poker.category(key)]
    return lo + (hi - lo) * poker.key_ranks(key)[0] / 12


def _value(keys: tuple[int, int, int], special_count: int) -> float:
    """specials + P(no row lost) − P(every row lost), rows taken as independent."""
    w = [_strength(p, k) for p, k in zip(("front", "middle", "back"), keys, strict=True)]
    return special_count + w[0] * w[1] * w[2] - (1 - w[0]) * (1 - w[1]) * (1 - w[2])


def _mask(indices: Iterable[int]) -> int:
    m = 0
    for i in indices:
        m |= 1 << i
    return m


def _diverse(pool: Iterable[Combo], limit: int) -> list[Combo]:
    """The strongest combos of ``pool`` (sorted strongest first), at most two per made shape."""
    seen: dict[int, int] = {}
    out: list[Combo] = []
    for key, mask in pool:
        shape = key >> 14
        if seen.get(shape, 0) < _PER_SHAPE:
            seen[shape] = seen.get(shape, 0) + 1
            out.append((key, mask))
            if len(out) == limit:
                break
    return out


class _Hand:
    """The 17 cards with every 5-card row keyed once."""

    def __init__(self, cards: Sequence[int], jackpot: int) -> None:
        self.cards = list(cards)
        rows = combinations(range(HAND_SIZE), 5)
        keyed = ((poker.rank5([self.cards[i] for i in c], suits=False), _mask(c)) for c in rows)
        self.fives: list[Combo] = sorted(keyed, reverse=True)
        partners = [i for i, c in enumerate(self.cards) if rank_of(c) == rank_of(jackpot) and c != jackpot]
        self.jackpot_mask = _mask(partners) if len(partners) == 3 else -1
        jm = self.jackpot_mask
        self.special = {mask for key, mask in self.fives if key >= _QUADS_KEY or (jm != -1 and mask & jm == jm)}
        by_rank: dict[int, list[int]] = {}
        for i, c in enumerate(self.cards):
            by_rank.setdefault(rank_of(c), []).append(i)
        # one set of trips per rank that has three or four cards: worth keeping for the front
        self.trips = [_mask(idx[:3]) for idx in by_rank.values() if len(idx) >= 3]

    def has_jackpot(self, mask: int) -> bool:
        return self.jackpot_mask != -1 and mask & self.jackpot_mask == self.jackpot_mask

    def row_specials(self, key: int, mask: int) -> int:
        return int(key >= _QUADS_KEY) + int(self.has_jackpot(mask))

    def candidates(self, pool: list[Combo], limit: int) -> list[Combo]:
        """Distinct strong rows of ``pool``, rows with specials, and rows sparing trips for the front."""
        found = _diverse(pool, limit)
        found += [c for c in pool if c[1] in self.special][:4]
        for trips in self.trips:
            found += _diverse((c for c in pool if not c[1] & trips), 2)
        return list(dict.fromkeys(found))


def _best_front(hand: _Hand, rest: int, middle_key: int) -> tuple[float, tuple[int, int, int], int] | None:
    """Best (value without the middle/back specials, keys, mask) front from ``rest`` under the middle."""
    indices = [i for i in range(HAND_SIZE) if rest >> i & 1]
    best = None
    for trio in combinations(indices, 3):
        key = poker.rank3([hand.cards[i] for i in trio], suits=False)
        if key > middle_key:
            continue
        mask = _mask(trio)
        bonus = int(poker.category(key) == poker.TRIPS) + int(hand.has_jackpot(mask))
        if best is None or (bonus, key) > best[:2]:
            best = (bonus, key, mask)
    return None if best is None else (best[0], (best[1], 0, 0), best[2])


def _search(hand: _Hand) -> tuple[int, int, int]:
    """``(front, middle, back)`` masks of the best arrangement found; never a foul."""
    full = (1 << HAND_SIZE) - 1
    best_value, best_masks = float("-inf"), (0, 0, 0)
    for back_key, back in hand.candidates(hand.fives, _BACKS):
        pool = [c for c in hand.fives if not c[1] & back and c[0] <= back_key]
        for mid_key, middle in hand.candidates(pool, _MIDDLES):
            front = _best_front(hand, full & ~back & ~middle, mid_key)
            if front is None:
                continue
            bonus, (front_key, _, _), front_mask = front
            specials = bonus + hand.row_specials(mid_key, middle) + hand.row_specials(back_key, back)
            value = _value((front_key, mid_key, back_key), specials)
            if value > best_value:
                best_value, best_masks = value, (front_mask, middle, back)
    return best_masks


def arrange(cards: Sequence[int], jackpot: int) -> dict[str, list[int]]:
    """Rows for 17 cards, never a foul (RULES.md section 2 "Arranging"; auto-play).

    Returns ``{"front": [3], "middle": [5], "back": [5]}`` of card ints, each row sorted
    high to low; the four cards left out are the ones not listed.
    """
    if len(cards) != HAND_SIZE or len(set(cards)) != HAND_SIZE:
        raise EngineError(f"cards: expected {HAND_SIZE} distinct cards, got {len(cards)}")
    if jackpot in cards:
        raise EngineError("jackpot: the jackpot card belongs to nobody")
    hand = _Hand(cards, jackpot)
    masks = _search(hand)
    rows = [sorted((hand.cards[i] for i in range(HAND_SIZE) if m >> i & 1), reverse=True) for m in masks]
    return {"front": rows[0], "middle": rows[1], "back": rows[2]}
