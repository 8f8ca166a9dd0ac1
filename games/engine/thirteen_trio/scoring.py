"""比打槍 scoring: fouls, shoots, home runs and specials (docs/RULES.md section 2 "Scoring", "Specials").

Rows are ``{"front": [3 cards], "middle": [5], "back": [5]}`` of card ints. No suits are
compared: every key is taken with ``suits=False``, so equal rows tie.

>>> from games.engine.cards import parse_cards
>>> def hand(f, m, b):
...     return {"front": parse_cards(f.split()), "middle": parse_cards(m.split()), "back": parse_cards(b.split())}
>>> a = hand("Ah Ad Kc", "2s 2d 3c 3h Jh", "7h 7d 7c 8s 8h")   # beats both others on every row
>>> b = hand("Qh Jd 9c", "4s 4d 5c 6h 9d", "Ts Td Th 2c 4c")
>>> c = hand("Kh Qd 3d", "Ks Kd 5d 6d 4h", "9h 9s Jc Js 2h")   # wins front and middle from b, loses back
>>> score = score_hands([a, b, c], parse_cards(["5s"])[0])
>>> score["units"], score["shoots"], score["home_run"], score["fouled"]
([4, -2, -2], [[0, 1], [0, 2]], 0, [False, False, False])
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.engine import poker
from games.engine.cards import rank_of
from games.engine.thirteen_trio.rules import PLAYERS, ROWS

Rows = Mapping[str, Sequence[int]]

#: Special kinds (docs/RULES.md "Specials") and their seed names.
SPECIAL_NAMES: dict[str, str] = {
    "front_trips": "衝三",
    "quads": "鐵支",
    "straight_flush": "同花順",
    "jackpot": "彩金",
}


def row_keys(rows: Rows) -> tuple[int, int, int]:
    """``(front, middle, back)`` keys in poker's one key space, suits ignored."""
    return (
        poker.rank3(rows["front"], suits=False),
        poker.rank5(rows["middle"], suits=False),
        poker.rank5(rows["back"], suits=False),
    )


def is_foul(rows: Rows) -> bool:
    """相公: not back ≥ middle ≥ front (equal allowed; docs/RULES.md "Arranging")."""
    front, middle, back = row_keys(rows)
    return not front <= middle <= back


def shoots(a: Sequence[int], b: Sequence[int]) -> bool:
    """Whether keys ``a`` shoot keys ``b`` (打槍): at least one row won and none lost."""
    wins = sum(x > y for x, y in zip(a, b, strict=True))
    losses = sum(x < y for x, y in zip(a, b, strict=True))
    return wins >= 1 and losses == 0


def _jackpot_partners(jackpot: int) -> set[int]:
    """The three other cards of the jackpot card's rank."""
    return {c for c in range(52) if rank_of(c) == rank_of(jackpot) and c != jackpot}


def specials(rows: Rows, jackpot: int) -> list[dict[str, str]]:
    """The specials of one unfouled hand, row by row (衝三, 鐵支, 同花順, 彩金).

    Front trips count once; quads or a straight flush count in the middle and in the back;
    the jackpot counts in the row holding all three other cards of the jackpot rank.
    """
    front, middle, back = row_keys(rows)
    found: list[dict[str, str]] = []
    if poker.category(front) == poker.TRIPS:
        found.append({"kind": "front_trips", "row": "front"})
    for row, key in (("middle", middle), ("back", back)):
        if poker.category(key) == poker.QUADS:
            found.append({"kind": "quads", "row": row})
        elif poker.category(key) == poker.STRAIGHT_FLUSH:
            found.append({"kind": "straight_flush", "row": row})
    partners = _jackpot_partners(jackpot)
    for row in ROWS:
        if partners <= set(rows[row]):
            found.append({"kind": "jackpot", "row": row})
    return found


def _shoot_pairs(keys: Sequence[tuple[int, int, int]], fouled: Sequence[bool]) -> list[list[int]]:
    """``[shooter, victim]`` pairs: a fouled hand loses every row to every unfouled one."""
    pairs: list[list[int]] = []
    for a in range(PLAYERS):
        for b in range(PLAYERS):
            if a == b or fouled[a]:
                continue
            if fouled[b] or shoots(keys[a], keys[b]):
                pairs.append([a, b])
    return sorted(pairs, key=lambda p: (min(p), max(p)))


def score_hands(hands: Sequence[Rows], jackpot: int) -> dict[str, Any]:
    """Net 墩 per seat of one game (docs/RULES.md section 2 "Scoring (比打槍)", "Specials").

    A shoot pays 1; a home run (shooting both others) 1 more from each; each special
    1 from each other player; fouled hands earn nothing. ``units`` sums to zero.
    """
    fouled = [is_foul(rows) for rows in hands]
    keys = [row_keys(rows) for rows in hands]
    units = [0] * PLAYERS
    pairs = _shoot_pairs(keys, fouled)
    home_run = next((s for s in range(PLAYERS) if sum(p[0] == s for p in pairs) == PLAYERS - 1), None)
    for shooter, victim in pairs:
        amount = 2 if shooter == home_run else 1
        units[shooter] += amount
        units[victim] -= amount
    found: list[dict[str, Any]] = []
    for seat, rows in enumerate(hands):
        if fouled[seat]:
            continue
        for special in specials(rows, jackpot):
            found.append({"seat": seat, **special, "name": SPECIAL_NAMES[special["kind"]]})
            for other in range(PLAYERS):
                units[other] += PLAYERS - 1 if other == seat else -1
    return {"units": units, "fouled": fouled, "shoots": pairs, "home_run": home_run, "specials": found}


def next_head(head: int, hands: Sequence[Rows], fouled: Sequence[bool]) -> int:
    """The next table head: strongest back among unfouled hands (docs/RULES.md "Table head and deal").

    Equal backs: the tied seat met first counter-clockwise from the current head, the
    head itself first. All fouled: unchanged.
    """
    best, best_key = head, -1
    for step in range(PLAYERS):
        seat = (head - step) % PLAYERS
        if fouled[seat]:
            continue
        key = poker.rank5(hands[seat]["back"], suits=False)
        if key > best_key:
            best, best_key = seat, key
    return best
