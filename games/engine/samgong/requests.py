"""Score one finished 三公 hand from a plain request (the command-line scorer's entry point).

Request (every mode)::

    {"game": "samgong", "mode": "all_compare" | "pairwise" | "banker_bid" | "banker_rotate" | "house",
     "base": A, "rules": {...optional room overrides...},
     "seats": [{"cards": ["Ks", "Qd", "9c"], "bet": X, "stack": S}, ...]}

* banker modes add ``"banker": seat`` (the banker's ``bet`` is ignored and may be left out);
* ``pairwise`` has no bets (``bet`` is ignored);
* ``house`` takes the two table hands at the top level, ``"player_cards"`` (閒) and
  ``"banker_cards"`` (莊), and per seat ``"bets": {"player": n, "banker": n, "tie": n,
  "sangong": n, "side": n}`` (stakes in minor units, any subset) and ``"stack"``.

Answer: ``{"coins": [net per seat before the fee], "commission": N, "house": H,
"winner": seat or None, "hands": [name ids]}``. ``house`` is the house's whole net (the fee
plus, on the house table, the house bank's result), so ``sum(coins) - commission + house == 0``.

>>> score_request({"game": "samgong", "mode": "all_compare", "base": 100, "seats": [
...     {"cards": ["Ks", "Qs", "Jh"], "bet": 1, "stack": 10000},
...     {"cards": ["2s", "3d", "4d"], "bet": 2, "stack": 10000}]})["coins"]
[600, -600]
"""

from __future__ import annotations

from typing import Any

from games.engine.cards import check_distinct, parse_cards
from games.engine.errors import EngineError
from games.engine.samgong.house import check_bets, settle_house
from games.engine.samgong.rules import BANKER_MODES, MODES, resolve_rules
from games.engine.samgong.settle import settle_all_compare, settle_banker, settle_pairwise


def score_request(req: dict[str, Any]) -> dict[str, Any]:
    """Validate ``req`` (EngineError messages name the field) and score it (docs/RULES.md section 3)."""
    if not isinstance(req, dict):
        raise EngineError("request: expected a JSON object")
    if req.get("game") != "samgong":
        raise EngineError(f"game: expected 'samgong', got {req.get('game')!r}")
    mode = req.get("mode")
    if mode not in MODES:
        raise EngineError(f"mode: expected one of {', '.join(MODES)}, got {mode!r}")
    overrides = req.get("rules") or {}
    if not isinstance(overrides, dict):
        raise EngineError("rules: expected a mapping of room settings")
    rules = resolve_rules({**overrides, "mode": mode, "base": req.get("base")})
    seats = req.get("seats")
    if not isinstance(seats, list) or not seats:
        raise EngineError("seats: expected a non-empty list of seats")
    stacks = [_stack(seat, i) for i, seat in enumerate(seats)]
    record = _house(req, seats, stacks, rules) if mode == "house" else _table(req, seats, stacks, rules)
    return {
        "coins": record["gross"],
        "commission": record["commission"],
        "house": record["house"],
        "winner": record["winner"],
        "hands": record["hands"],
    }


def _stack(seat: Any, i: int) -> int:
    if not isinstance(seat, dict):
        raise EngineError(f"seats[{i}]: expected an object")
    stack = seat.get("stack")
    if not isinstance(stack, int) or isinstance(stack, bool):
        raise EngineError(f"seats[{i}].stack: expected an integer number of minor units")
    if stack < 0:
        raise EngineError(f"seats[{i}].stack: must not be negative, got {stack}")
    return stack


def _count(seats: list[Any], rules: dict[str, Any]) -> None:
    lo, hi = rules["min_players"], rules["max_players"]
    if not lo <= len(seats) <= hi:
        raise EngineError(f"seats: {rules['mode']} needs {lo}..{hi} players, got {len(seats)}")


def _table(req: dict[str, Any], seats: list[Any], stacks: list[int], rules: dict[str, Any]) -> dict[str, Any]:
    _count(seats, rules)
    mode = rules["mode"]
    hands = [parse_cards(seat.get("cards"), count=3, field=f"seats[{i}].cards") for i, seat in enumerate(seats)]
    _distinct_all(hands, [f"seats[{i}].cards" for i in range(len(hands))])
    if mode == "pairwise":
        return settle_pairwise(hands, stacks, rules)
    banker = _banker(req, len(seats)) if mode in BANKER_MODES else None
    bets = [0 if i == banker else _bet(seat, i, rules) for i, seat in enumerate(seats)]
    if banker is None:
        return settle_all_compare(hands, bets, stacks, rules)
    return settle_banker(hands, bets, stacks, banker, rules)


def _distinct_all(hands: list[list[int]], fields: list[str]) -> None:
    seen: list[int] = []
    for hand, field in zip(hands, fields, strict=True):
        check_distinct(seen + hand, field=field)
        seen += hand


def _banker(req: dict[str, Any], n: int) -> int:
    banker = req.get("banker")
    if not isinstance(banker, int) or isinstance(banker, bool) or not 0 <= banker < n:
        raise EngineError(f"banker: expected a seat index 0..{n - 1}, got {banker!r}")
    return banker


def _bet(seat: dict[str, Any], i: int, rules: dict[str, Any]) -> int:
    bet = seat.get("bet")
    if not isinstance(bet, int) or isinstance(bet, bool) or bet not in rules["bet_multipliers"]:
        allowed = ", ".join(str(x) for x in rules["bet_multipliers"])
        raise EngineError(f"seats[{i}].bet: {bet!r} not allowed; choose one of {allowed}")
    return bet


def _house(req: dict[str, Any], seats: list[Any], stacks: list[int], rules: dict[str, Any]) -> dict[str, Any]:
    _count(seats, rules)
    player = parse_cards(req.get("player_cards"), count=3, field="player_cards")
    banker = parse_cards(req.get("banker_cards"), count=3, field="banker_cards")
    _distinct_all([player, banker], ["player_cards", "banker_cards"])
    bets = [check_bets(seat.get("bets", {}), stacks[i], rules, f"seats[{i}].bets") for i, seat in enumerate(seats)]
    return settle_house(player, banker, bets, rules)
