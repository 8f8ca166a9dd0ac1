"""Request/response functions behind ``python -m games score|arrange`` for ``thirteen``
(docs/RULES.md section 1). Every input is validated; errors name the offending field.

>>> r = score_request({"game": "thirteen", "seats": [
...     {"cards": "Ah Ad 2c Kh Kd Qs Qc 3d 9s 9h 9d 9c 4s".split(),
...      "front": ["Ah", "Ad", "2c"], "middle": "Kh Kd Qs Qc 3d".split(), "back": "9s 9h 9d 9c 4s".split()},
...     {"cards": "7h 5d 3c Js Td 8h 6h 4c Qh Jh Tc 8c 5s".split(),
...      "front": ["7h", "5d", "3c"], "middle": "Js Td 8h 6h 4c".split(), "back": "Qh Jh Tc 8c 5s".split()}]})
>>> r
{'units': [6, -6], 'fouled': [False, False], 'natural': [None, None]}
"""

from __future__ import annotations

from typing import Any

from games.engine.cards import card_str, cards_str, parse_cards
from games.engine.errors import EngineError
from games.engine.thirteen.arrange import arrange
from games.engine.thirteen.hands import parse_rows, scored_hand, settle
from games.engine.thirteen.rules import MAX_SEATS, MIN_SEATS, commission_rate
from games.engine.thirteen.scoring import Hand, score_units

_MONEY_FIELDS = ("unit", "stacks", "commission")
_ROWS = ("front", "middle", "back")


def _check_fields(obj: dict[str, Any], allowed: set[str], field: str) -> None:
    extra = sorted(str(k) for k in set(obj) - allowed)
    if extra:
        where = f"{field}." if field else ""
        raise EngineError(f"{where}{extra[0]}: unknown field (expected {', '.join(sorted(allowed))})")


def _check_game(req: object) -> dict[str, Any]:
    if not isinstance(req, dict):
        raise EngineError("request: expected a JSON object")
    if req.get("game") != "thirteen":
        raise EngineError(f"game: expected 'thirteen', got {req.get('game')!r}")
    return req


def _int(value: object, field: str, *, low: int, high: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < low or (high is not None and value > high):
        bounds = f"{low}..{high}" if high is not None else f">= {low}"
        raise EngineError(f"{field}: expected an integer {bounds}, got {value!r}")
    return value


def _seat_hand(seat: object, i: int) -> tuple[list[int], Hand]:
    field = f"seats[{i}]"
    if not isinstance(seat, dict):
        raise EngineError(f"{field}: expected an object with cards, front, middle, back, declare")
    cards = parse_cards(seat.get("cards"), count=13, field=f"{field}.cards")
    declare = seat.get("declare", False)
    if not isinstance(declare, bool):
        raise EngineError(f"{field}.declare: expected true or false, got {declare!r}")
    given = [r for r in _ROWS if r in seat]
    if declare and not given:
        return cards, scored_hand(cards, None, True)
    if len(given) < 3:
        missing = next(r for r in _ROWS if r not in seat)
        raise EngineError(f"{field}.{missing}: missing (rows are required unless declare is true)")
    rows = parse_rows(seat, cards, field=field)
    return cards, scored_hand(cards, rows, declare)


def _hands(seats: object) -> list[Hand]:
    if not isinstance(seats, list) or not MIN_SEATS <= len(seats) <= MAX_SEATS:
        count = len(seats) if isinstance(seats, list) else type(seats).__name__
        raise EngineError(f"seats: expected a list of {MIN_SEATS}-{MAX_SEATS} seats, got {count}")
    owner: dict[int, int] = {}
    hands = []
    for i, seat in enumerate(seats):
        cards, hand = _seat_hand(seat, i)
        for c in cards:
            if c in owner:
                raise EngineError(f"seats[{i}].cards: duplicate card {card_str(c)} (also in seats[{owner[c]}])")
            owner[c] = i
        hands.append(hand)
    return hands


def _money(req: dict[str, Any], hands: list[Hand], dealer: int) -> dict[str, Any]:
    missing = [f for f in _MONEY_FIELDS if f not in req]
    if missing:
        raise EngineError(f"{missing[0]}: missing (unit, stacks and commission go together)")
    unit = _int(req["unit"], "unit", low=1)
    stacks = req["stacks"]
    if not isinstance(stacks, list) or len(stacks) != len(hands):
        raise EngineError(f"stacks: expected a list of {len(hands)} integers (one per seat)")
    stacks = [_int(s, f"stacks[{i}]", low=0) for i, s in enumerate(stacks)]
    rate = commission_rate(req["commission"], field="commission")
    money = settle(hands, dealer=dealer, unit=unit, stacks=stacks, rate=rate)
    return {"coins": money["coins"], "commission": money["commission"]}


def score_request(req: dict[str, Any]) -> dict[str, Any]:
    """Score 2-4 seats (docs/RULES.md section 1, "Scoring", "Naturals", "Fouls", "Money").

    ``{"game": "thirteen", "seats": [{"cards": [13], "front": [3], "middle": [5], "back": [5],
    "declare": false}, ...]}`` → ``{"units": [...], "fouled": [...], "natural": [...]}``; with
    ``unit``, ``stacks`` and ``commission`` (percent) also ``coins`` and ``commission``.
    ``dealer`` (default 0) fixes the comparison order used by table-stakes trimming.
    """
    req = _check_game(req)  # extra fields are allowed: hand-history lines carry more
    hands = _hands(req.get("seats"))
    dealer = _int(req.get("dealer", 0), "dealer", low=0, high=len(hands) - 1)
    units, _ = score_units(hands, dealer)
    response: dict[str, Any] = {
        "units": units,
        "fouled": [h.fouled for h in hands],
        "natural": [h.natural for h in hands],
    }
    if any(f in req for f in _MONEY_FIELDS):
        response.update(_money(req, hands, dealer))
    return response


def arrange_request(req: dict[str, Any]) -> dict[str, Any]:
    """``{"game": "thirteen", "cards": [13]}`` → ``{"front", "middle", "back", "declare"}``:
    the automatic, never-fouled arrangement, declaring a natural when it is worth at least the
    best rows (docs/RULES.md "Naturals")."""
    req = _check_game(req)
    _check_fields(req, {"game", "cards"}, "")
    cards = parse_cards(req.get("cards"), count=13, field="cards")
    best = arrange(cards)
    return {**{row: cards_str(best[row]) for row in _ROWS}, "declare": best["declare"]}
