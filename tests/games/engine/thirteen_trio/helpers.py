"""Shared helpers for the thirteen_trio tests: hands written as row strings, controlled deals."""

from __future__ import annotations

import copy
from typing import Any

from games.engine import thirteen_trio
from games.engine.cards import cards_str, parse_card, parse_cards

SEED = "cd" * 32
NOW = 1_000_000.0
BASE = 10_000


def hand(front: str, middle: str, back: str) -> dict[str, list[int]]:
    return {
        "front": parse_cards(front.split()),
        "middle": parse_cards(middle.split()),
        "back": parse_cards(back.split()),
    }


def card(text: str) -> int:
    return parse_card(text)


def assert_one_deck(*hands: dict[str, list[int]], jackpot: str) -> None:
    """The example is a possible deal: no card twice, the jackpot card in no hand."""
    cards = [c for h in hands for row in h.values() for c in row] + [card(jackpot)]
    assert len(cards) == len(set(cards))


# One possible deal (jackpot 6c): STRONG shoots both others (a home run), MIDDLING shoots WEAK.
STRONG = hand("Qc Qd 2h", "3s 3h 4s 4c Kh", "Jd Js Jh 6s 6h")  # pair / two pair / full house
MIDDLING = hand("5h 7c 8s", "9c 9d 2s 3c 4d", "Tc Td 7s 7d Ah")  # 8 high / pair / two pair
WEAK = hand("2c 3d 4h", "5c 6d 7h 9s Jc", "8c 8d Ts Qh Kd")  # 4 high / J high / pair


def seats(stack: int = 1_000_000, players: str = "abc") -> list[dict[str, Any]]:
    return [{"player": p, "stack": stack} for p in players]


def start(**kw: Any) -> dict[str, Any]:
    args: dict[str, Any] = {"rules": {}, "seats": seats(), "carry": None, "server_seed": SEED, "now": NOW}
    args.update(kw)
    return thirteen_trio.plugin.new_hand(**args)


def with_hands(state: dict[str, Any], hands: list[dict[str, list[int]]], jackpot: str) -> dict[str, Any]:
    """The state with each seat's 17 cards replaced: its 13 rows plus spare cards of the deck."""
    new = copy.deepcopy(state)
    used = {c for h in hands for row in h.values() for c in row} | {card(jackpot)}
    spare = [c for c in range(52) if c not in used]
    for seat, rows in enumerate(hands):
        new["seats"][seat]["cards"] = rows["front"] + rows["middle"] + rows["back"] + spare[4 * seat : 4 * seat + 4]
    new["jackpot"] = card(jackpot)
    return new


def action(rows: dict[str, list[int]]) -> dict[str, Any]:
    return {"type": "arrange", **{r: cards_str(cards) for r, cards in rows.items()}}


def play(state: dict[str, Any], hands: list[dict[str, list[int]]]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Submit every seat's rows; returns the settled state and the last events."""
    events: list[dict[str, Any]] = []
    for seat, rows in enumerate(hands):
        state, events = thirteen_trio.plugin.apply(state, seat, action(rows), now=NOW + 1)
    return state, events


def card_strings(obj: Any) -> set[str]:
    """Every card string anywhere in a JSON value."""
    if isinstance(obj, dict):
        return set().union(*(card_strings(v) for v in obj.values())) if obj else set()
    if isinstance(obj, list):
        return set().union(*(card_strings(v) for v in obj)) if obj else set()
    if isinstance(obj, str) and len(obj) == 2 and obj[0] in "23456789TJQKA" and obj[1] in "shcd":
        return {obj}
    return set()
