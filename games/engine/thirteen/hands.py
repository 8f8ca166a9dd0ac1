"""Dealing, submissions and settlement of one ``thirteen`` game (docs/RULES.md section 1).

These helpers are shared by the state machine (:mod:`games.engine.thirteen.engine`) and
the command-line requests (:mod:`games.engine.thirteen.requests`).
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from games.engine.cards import card_str, cards_str, parse_cards
from games.engine.deck import shuffle
from games.engine.errors import EngineError
from games.engine.poker import describe
from games.engine.thirteen.money import settle_coins
from games.engine.thirteen.naturals import best_natural
from games.engine.thirteen.scoring import ROWS, Hand, comparison_order, declared_hand, ordinary_hand, score_units

ROW_SIZES = {"front": 3, "middle": 5, "back": 5}


def deal(server_seed: str, client_seeds: Sequence[str], players: int, dealer: int) -> list[list[int]]:
    """docs/RULES.md "Deal": 13 cards each from one deck, one at a time clockwise from the
    dealer's left neighbour, starting with the top card of the provably fair shuffle."""
    deck = shuffle(server_seed, client_seeds)
    hands: list[list[int]] = [[] for _ in range(players)]
    for k in range(13 * players):
        hands[(dealer + 1 + k) % players].append(deck[k])
    return hands


def parse_rows(source: dict[str, Any], cards: Sequence[int], *, field: str) -> dict[str, list[int]]:
    """Front 3 / middle 5 / back 5 that together are exactly ``cards``; EngineError naming the field."""
    rows = {row: parse_cards(source.get(row), count=size, field=f"{field}.{row}") for row, size in ROW_SIZES.items()}
    own = set(cards)
    placed: set[int] = set()
    for card in rows["front"] + rows["middle"] + rows["back"]:
        if card not in own:
            raise EngineError(f"{field}: {card_str(card)} is not one of this seat's 13 cards")
        if card in placed:
            raise EngineError(f"{field}: {card_str(card)} is placed in two rows")
        placed.add(card)
    return rows


def scored_hand(cards: Sequence[int], rows: dict[str, list[int]] | None, declare: bool) -> Hand:
    """docs/RULES.md "Naturals": a declaration counts the best natural of the 13 cards, and is a
    foul without one; otherwise the rows are scored as an ordinary hand."""
    if declare:
        return declared_hand(best_natural(cards))
    assert rows is not None
    return ordinary_hand(rows["front"], rows["middle"], rows["back"])


def hand_record(cards: Sequence[int], rows: dict[str, list[int]] | None, hand: Hand, declare: bool) -> dict[str, Any]:
    """A JSON record of a revealed hand for views, events and hand histories."""
    record: dict[str, Any] = {
        "cards": cards_str(cards),
        "declared": declare,
        "natural": hand.natural,
        "fouled": hand.fouled,
    }
    for row in ROWS:
        record[row] = cards_str(rows[row]) if rows else None
    record["names"] = [describe(k) for k in hand.keys] if hand.keys else None
    return record


def settle(hands: Sequence[Hand], *, dealer: int, unit: int, stacks: Sequence[int], rate: Fraction) -> dict[str, Any]:
    """Units, table-stakes trimming and commission for one game (docs/RULES.md "Money")."""
    units, pairs = score_units(hands, dealer)
    order = comparison_order(len(hands), dealer)
    money = settle_coins([p["units"] for p in pairs], order, stacks=stacks, unit=unit, rate=rate)
    for pair, coins in zip(pairs, money["transfers"], strict=True):
        pair["coins"] = coins
    return {
        "units": units,
        "coins": money["coins"],
        "commission": money["commission"],
        "house": money["commission"],
        "commissions": money["commissions"],
        "trimmed": money["trimmed"],
        "fouled": [h.fouled for h in hands],
        "natural": [h.natural for h in hands],
        "pairs": pairs,
        "dealer": dealer,
        "unit": unit,
    }
