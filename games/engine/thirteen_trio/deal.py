"""The jackpot card and the deal (docs/RULES.md section 2 "Table head and deal").

The top card of the shuffled deck is the jackpot card (彩金); its value (A = 1 … K = 13)
counts 頭 1, 對 2, 尾 3, 頭 4, … counter-clockwise from the table head to the seat that
gets the first card. The other 51 cards go one at a time counter-clockwise, 17 each.

>>> from games.engine.cards import parse_card
>>> card_value(parse_card("6h")), start_seat(0, card_value(parse_card("6h")))
(6, 1)
>>> role_of_start = [start_seat(0, v) for v in range(1, 14)]
>>> role_of_start          # 頭 0, 對 2, 尾 1, 頭 0, ...
[0, 2, 1, 0, 2, 1, 0, 2, 1, 0, 2, 1, 0]
"""

from __future__ import annotations

from collections.abc import Sequence

from games.engine.cards import rank_of
from games.engine.errors import EngineError
from games.engine.thirteen_trio.rules import HAND_SIZE, PLAYERS, ccw

_ACE = 12


def card_value(card: int) -> int:
    """A card's value for the jackpot count: A = 1, 2 … 10 face value, J 11, Q 12, K 13."""
    r = rank_of(card)
    return 1 if r == _ACE else r + 2


def start_seat(head: int, value: int) -> int:
    """The seat dealt first: ``(head − ((value − 1) mod 3)) mod 3`` (a 6 starts at 尾)."""
    if not 1 <= value <= 13:
        raise EngineError(f"card value must be 1..13, got {value}")
    return ccw(head, (value - 1) % PLAYERS)


def deal(deck: Sequence[int], head: int) -> tuple[int, int, list[list[int]]]:
    """``(jackpot, first seat, hands)`` from a shuffled deck (index 0 is the top card).

    Card ``deck[1 + i]`` goes to seat ``first − i mod 3``: one at a time counter-clockwise.
    """
    if len(deck) != PLAYERS * HAND_SIZE + 1:
        raise EngineError(f"deck: expected {PLAYERS * HAND_SIZE + 1} cards, got {len(deck)}")
    jackpot = deck[0]
    first = start_seat(head, card_value(jackpot))
    hands: list[list[int]] = [[] for _ in range(PLAYERS)]
    for i, card in enumerate(deck[1:]):
        hands[ccw(first, i)].append(card)
    return jackpot, first, hands
