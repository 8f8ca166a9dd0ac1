"""Score and arrange requests for the command line (``python -m games score|arrange``).

Every :class:`EngineError` names the field at fault (``jackpot``, ``seats[1].middle``...).

>>> def seat(front, middle, back, spare):
...     rows = {"front": front.split(), "middle": middle.split(), "back": back.split()}
...     return {"cards": sum(rows.values(), spare.split()), **rows}
>>> req = {"game": "thirteen_trio", "jackpot": "5s", "base": 100, "seats": [
...     seat("Ah Ad Kc", "2s 2d 3c 3h Jh", "7h 7d 7c 8s 8h", "3s 5h 6c 6s"),   # home run
...     seat("Qh Jd 9c", "4s 4d 5c 6h 9d", "Ts Td Th 2c 4c", "7s 8d 8c Tc"),
...     seat("Kh Qd 3d", "Ks Kd 5d 6d 4h", "9h 9s Jc Js 2h", "Qc Qs Ac As")]}
>>> score_request(req)
{'units': [4, -2, -2], 'fouled': [False, False, False], 'coins': [380, -200, -200], 'commission': 20}
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.engine.cards import card_str, cards_str, parse_card
from games.engine.errors import CardError, EngineError
from games.engine.thirteen_trio.arrange import arrange
from games.engine.thirteen_trio.money import game_coins
from games.engine.thirteen_trio.rules import DEFAULT_RULES, GAME, HAND_SIZE, PLAYERS, ROW_SIZES, ROWS
from games.engine.thirteen_trio.scoring import score_hands


def _card_list(value: object, count: int, field: str) -> list[int]:
    """Parse a list of ``count`` distinct card strings, errors prefixed with ``field``."""
    if not isinstance(value, list):
        raise CardError(f'{field}: expected a list of {count} cards such as ["As", "Td"]')
    if len(value) != count:
        raise CardError(f"{field}: expected {count} cards, got {len(value)}")
    cards: list[int] = []
    for i, text in enumerate(value):
        try:
            card = parse_card(text)
        except CardError as exc:
            raise CardError(f"{field}[{i}]: {exc}") from exc
        if card in cards:
            raise CardError(f"{field}: duplicate card {card_str(card)}")
        cards.append(card)
    return cards


def _jackpot(req: Mapping[str, Any]) -> int:
    if "jackpot" not in req:
        raise EngineError('jackpot: missing (the turned-up card, such as "6h")')
    try:
        return parse_card(req["jackpot"])
    except CardError as exc:
        raise CardError(f"jackpot: {exc}") from exc


def _seat_rows(seat: object, field: str) -> tuple[list[int], dict[str, list[int]]]:
    """One seat's 17 cards and its three rows, the rows a subset of the cards."""
    if not isinstance(seat, dict):
        raise EngineError(f"{field}: expected an object with cards, front, middle, back")
    if seat.get("declare"):
        raise EngineError(f"{field}.declare: {GAME} has no naturals to declare")
    cards = _card_list(seat.get("cards"), HAND_SIZE, f"{field}.cards")
    rows: dict[str, list[int]] = {}
    used: set[int] = set()
    for row in ROWS:
        rows[row] = _card_list(seat.get(row), ROW_SIZES[row], f"{field}.{row}")
        for card in rows[row]:
            if card not in cards:
                raise EngineError(f"{field}.{row}: {card_str(card)} is not one of this seat's cards")
            if card in used:
                raise EngineError(f"{field}.{row}: {card_str(card)} is already in another row")
            used.add(card)
    return cards, rows


def _check_disjoint(jackpot: int, hands: list[list[int]]) -> None:
    """No card in two seats, and the jackpot card in none."""
    owner: dict[int, str] = {}
    for i, cards in enumerate(hands):
        for card in cards:
            if card == jackpot:
                raise EngineError(f"jackpot: {card_str(card)} is also in seats[{i}].cards")
            if card in owner:
                raise EngineError(f"seats[{i}].cards: {card_str(card)} is also in {owner[card]}")
            owner[card] = f"seats[{i}].cards"


def _positive_int(req: Mapping[str, Any], name: str) -> int:
    value = req[name]
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise EngineError(f"{name}: expected a non-negative integer, got {value!r}")
    return int(value)


def score_request(req: dict[str, Any]) -> dict[str, Any]:
    """Score three arranged hands (docs/RULES.md section 2 "Scoring", "Specials", "Money").

    ``{"jackpot": "6h", "seats": [{"cards": [17], "front": [3], "middle": [5], "back": [5]} × 3]}``
    gives ``{"units": [net 墩 per seat], "fouled": [...]}``; with ``"base"`` (one 墩 in
    coins) also ``"coins"`` after the 5 % commission (or ``"commission_percent"``) and
    the total ``"commission"``.
    """
    jackpot = _jackpot(req)
    seats = req.get("seats")
    if not isinstance(seats, list) or len(seats) != PLAYERS:
        got = len(seats) if isinstance(seats, list) else "none"
        raise EngineError(f"seats: {GAME} needs exactly {PLAYERS} seats, got {got}")
    parsed = [_seat_rows(seat, f"seats[{i}]") for i, seat in enumerate(seats)]
    _check_disjoint(jackpot, [cards for cards, _ in parsed])
    score = score_hands([rows for _, rows in parsed], jackpot)
    out: dict[str, Any] = {"units": score["units"], "fouled": score["fouled"]}
    if "base" in req:
        percent = DEFAULT_RULES["commission_percent"]
        if "commission_percent" in req:
            percent = _positive_int(req, "commission_percent")
        base = _positive_int(req, "base")
        coins, commission = game_coins(score["units"], base=base, commission_percent=percent)
        out.update(coins=coins, commission=commission)
    return out


def arrange_request(req: dict[str, Any]) -> dict[str, Any]:
    """Auto-arrange 17 cards (docs/RULES.md section 2 "Arranging"); ``declare`` is always false.

    >>> out = arrange_request({"game": "thirteen_trio", "jackpot": "6h",
    ...     "cards": "6s 6d 6c 2h 3h 4h 8h Jh As Ad Kd Qc 9s 9d 7c 5c Tc".split()})
    >>> sorted(out["front"]), out["declare"]
    (['6c', '6d', '6s'], False)
    """
    jackpot = _jackpot(req)
    cards = _card_list(req.get("cards"), HAND_SIZE, "cards")
    if jackpot in cards:
        raise EngineError(f"jackpot: {card_str(jackpot)} is also in cards")
    rows = arrange(cards, jackpot)
    return {**{row: cards_str(rows[row]) for row in ROWS}, "declare": False}
