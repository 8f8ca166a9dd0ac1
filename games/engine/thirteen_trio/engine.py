"""The 三人十三支 state machine (games/engine/protocol.py; docs/RULES.md section 2).

Phases: ``arrange`` (dealt, rows being submitted) → ``settled`` (showdown scored) or
``void`` (interrupted by our own servers, stakes returned). State is plain JSON: card
ints, seats as dicts, money as ``int`` minor units.

Actions: ``{"type": "arrange", "front": [...], "middle": [...], "back": [...]}`` from a
player; ``{"type": "disconnect"}`` (``"server_fault": true`` for our own outages,
``"leave": true`` for a player who chose to leave the table) and ``{"type": "reconnect"}``
from the live service for a seat, in any phase before settlement. A penalty charged for a
leave says so (``result.penalty.left``), so the pages call it leaving, not disconnecting.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.engine.cards import cards_str, parse_card
from games.engine.deck import commitment, shuffle
from games.engine.errors import EngineError, IllegalAction
from games.engine.jsondata import json_copy
from games.engine.thirteen_trio.arrange import arrange
from games.engine.thirteen_trio.deal import deal
from games.engine.thirteen_trio.money import game_coins
from games.engine.thirteen_trio.money import penalty as leaver_penalty
from games.engine.thirteen_trio.rules import (
    GAME,
    PLAYERS,
    ROW_SIZES,
    ROWS,
    game_minimum,
    resolve_rules,
    set_minimum,
)
from games.engine.thirteen_trio.scoring import next_head, score_hands
from games.engine.thirteen_trio.table import next_carry, table_state

State = dict[str, Any]
Events = list[dict[str, Any]]


def _check_seats(seats: Sequence[Mapping[str, Any]]) -> None:
    if len(seats) != PLAYERS:
        raise EngineError(f"seats: {GAME} is played by exactly {PLAYERS} players, got {len(seats)}")
    for i, seat in enumerate(seats):
        if not isinstance(seat.get("player"), str):
            raise EngineError(f"seats[{i}].player: expected a string")
        stack = seat.get("stack")
        if isinstance(stack, bool) or not isinstance(stack, int):
            raise EngineError(f"seats[{i}].stack: expected an integer amount in minor units")


def _check_minimum(rules: dict[str, int], seats: Sequence[Mapping[str, Any]], first_of_set: bool) -> None:
    """docs/RULES.md "Money": 30 × base to start a set, 11 × base before every game."""
    minimum = set_minimum(rules) if first_of_set else game_minimum(rules)
    label = "the set minimum (30 × base)" if first_of_set else "this game's minimum (11 × base)"
    for i, seat in enumerate(seats):
        if seat["stack"] < minimum:
            raise EngineError(
                f"seat {i} ({seat['player']}) holds {seat['stack']}, below {label} of {minimum}:"
                " remove it before the deal"
            )


def new_hand(
    *,
    rules: dict[str, Any],
    seats: Sequence[dict[str, Any]],
    carry: dict[str, Any] | None,
    server_seed: str,
    client_seeds: Sequence[str] = (),
    now: float,
) -> State:
    """Deal one game (docs/RULES.md section 2 "Table head and deal", "Money").

    The head and the set counter come from ``carry``; every seat must hold the game's
    minimum (the set minimum in a set's first game) or :class:`EngineError` names it.
    """
    r = resolve_rules(rules)
    _check_seats(seats)
    players = [s["player"] for s in seats]
    head, game_no, gone = table_state(carry, players)
    _check_minimum(r, seats, game_no == 1)
    jackpot, first, hands = deal(shuffle(server_seed, client_seeds), head)
    return {
        "game": GAME,
        "rules": r,
        "phase": "arrange",
        "phase_seq": 1,
        "deadline": now + r["arrange_seconds"],
        "extended": False,
        "head": head,
        "start_seat": first,
        "jackpot": jackpot,
        "game_in_set": game_no,
        "commitment": commitment(server_seed),
        "seats": [
            {
                "player": s["player"],
                "stack": s["stack"],
                "cards": hands[i],
                "rows": None,
                "auto": False,
                "connected": s["player"] not in gone,
            }
            for i, s in enumerate(seats)
        ],
        "first_disconnect": None,
        "result": None,
    }


def legal_actions(state: State, seat: int) -> list[dict[str, Any]]:
    """An arrange template while this seat (connected) still has to submit; else nothing.

    Disconnect / reconnect come from the live service, not from the player, and are
    accepted by :func:`apply` without being listed here.
    """
    s = state["seats"][seat]
    if state["phase"] != "arrange" or s["rows"] is not None or not s["connected"]:
        return []
    return [{"type": "arrange", **ROW_SIZES}]


def awaiting(state: State) -> list[int]:
    """Seats still arranging, in seat order, disconnected ones included (played at the deadline)."""
    if state["phase"] != "arrange":
        return []
    return [seat for seat, s in enumerate(state["seats"]) if s["rows"] is None]


def deadline(state: State) -> float | None:
    """When the arranging time (or its one extension) runs out; None once the game is over."""
    return state["deadline"] if state["phase"] == "arrange" else None


def _parse_rows(state: State, seat: int, action: Mapping[str, Any]) -> dict[str, list[int]]:
    """The action's rows as card ints: right sizes, no card twice, all from the seat's 17."""
    own = set(state["seats"][seat]["cards"])
    rows: dict[str, list[int]] = {}
    used: set[int] = set()
    for row in ROWS:
        texts = action.get(row)
        if not isinstance(texts, list) or len(texts) != ROW_SIZES[row]:
            raise IllegalAction(f"{row}: expected a list of {ROW_SIZES[row]} cards")
        try:
            cards = [parse_card(t) for t in texts]
        except EngineError as exc:
            raise IllegalAction(f"{row}: {exc}") from exc
        for card in cards:
            if card not in own:
                raise IllegalAction(f"{row}: {cards_str([card])[0]} is not one of your cards")
            if card in used:
                raise IllegalAction(f"{row}: {cards_str([card])[0]} is used twice")
            used.add(card)
        rows[row] = cards
    return rows


def _step_copy(state: State) -> State:
    """The copy of ``state`` a step changes: a new top level, a new list of seats and a new dict for
    every seat. What lies deeper is shared with ``state``, and nothing changes it in place: the
    rules and each seat's cards are fixed at the deal; a step sets a seat's ``rows``, ``auto`` and
    ``connected`` and the ``result`` as new values, whole."""
    return {**state, "seats": [dict(seat) for seat in state["seats"]]}


def _arrange(state: State, seat: int, action: Mapping[str, Any]) -> tuple[State, Events]:
    s = state["seats"][seat]
    if s["rows"] is not None:
        raise IllegalAction(f"seat {seat} has already submitted its rows")
    if not s["connected"]:
        raise IllegalAction(f"seat {seat} is disconnected: it is auto-played when time runs out")
    rows = _parse_rows(state, seat, action)
    new = _step_copy(state)
    new["seats"][seat]["rows"] = rows
    events: Events = [{"type": "arranged", "seat": seat, "auto": False}]
    if all(x["rows"] is not None for x in new["seats"]):
        new, more = _settle(new)
        events += more
    return new, events


def _disconnect(state: State, seat: int, action: Mapping[str, Any]) -> tuple[State, Events]:
    """docs/RULES.md "Disconnecting or leaving": the first seat to disconnect in a game is charged."""
    if not state["seats"][seat]["connected"]:
        raise IllegalAction(f"seat {seat} is already disconnected")
    fault, leave = action.get("server_fault", False), action.get("leave", False)
    if not isinstance(fault, bool) or not isinstance(leave, bool):
        raise IllegalAction("server_fault, leave: expected true or false")
    new = _step_copy(state)
    new["seats"][seat]["connected"] = False
    charged = not fault and new["first_disconnect"] is None
    if charged:
        new["first_disconnect"] = seat
        if leave:
            new["seats"][seat]["left"] = True
    event = {"type": "disconnected", "seat": seat, "server_fault": fault, "penalized": charged}
    return new, [{**event, "left": True} if leave else event]


def _reconnect(state: State, seat: int) -> tuple[State, Events]:
    if state["seats"][seat]["connected"]:
        raise IllegalAction(f"seat {seat} is connected")
    new = _step_copy(state)
    new["seats"][seat]["connected"] = True
    return new, [{"type": "reconnected", "seat": seat}]


def apply(state: State, seat: int, action: dict[str, Any], *, now: float) -> tuple[State, Events]:
    """Apply one action (module docstring); :class:`IllegalAction` leaves ``state`` untouched."""
    if not isinstance(seat, int) or not 0 <= seat < PLAYERS:
        raise IllegalAction(f"seat: expected 0..{PLAYERS - 1}, got {seat!r}")
    if state["phase"] != "arrange":
        raise IllegalAction(f"the game is over ({state['phase']})")
    kind = action.get("type") if isinstance(action, dict) else None
    if kind == "arrange":
        return _arrange(state, seat, action)
    if kind == "disconnect":
        return _disconnect(state, seat, action)
    if kind == "reconnect":
        return _reconnect(state, seat)
    raise IllegalAction(f"type: expected arrange, disconnect or reconnect, got {kind!r}")


def auto_action(state: State, seat: int) -> dict[str, Any]:
    """The rows a timed-out or disconnected seat plays: :func:`arrange.arrange`, never a foul."""
    rows = arrange(state["seats"][seat]["cards"], state["jackpot"])
    return {"type": "arrange", **{row: cards_str(rows[row]) for row in ROWS}}


def on_deadline(state: State, *, now: float) -> tuple[State, Events]:
    """Time ran out (docs/RULES.md "Arranging": 30 s, extended once by 30 s, then auto-play).

    The first timeout extends the deadline; the second auto-plays every seat still
    arranging (events ``"auto": True``) and settles. Early or late calls do nothing.
    """
    if state["phase"] != "arrange" or now < state["deadline"]:
        return state, []
    new = _step_copy(state)
    new["phase_seq"] += 1
    if not new["extended"]:
        new["extended"] = True
        new["deadline"] = now + new["rules"]["extend_seconds"]
        return new, [{"type": "extended", "deadline": new["deadline"]}]
    events: Events = []
    for seat, s in enumerate(new["seats"]):
        if s["rows"] is None:
            rows = arrange(s["cards"], new["jackpot"])
            s["rows"], s["auto"] = {row: rows[row] for row in ROWS}, True
            events.append({"type": "arranged", "seat": seat, "auto": True})
    new, more = _settle(new)
    return new, events + more


def _played(state: State) -> list[dict[str, list[str]]]:
    return [{row: cards_str(s["rows"][row]) for row in ROWS} for s in state["seats"]]


def _settle(state: State) -> tuple[State, Events]:
    """Score the showdown and the money (docs/RULES.md "Scoring", "Specials", "Money"). Mutates ``state``."""
    rules = state["rules"]
    hands = [s["rows"] for s in state["seats"]]
    score = score_hands(hands, state["jackpot"])
    coins, commission = game_coins(
        score["units"], base=rules["base"], commission_percent=rules["commission_percent"]
    )
    house = commission
    penalty = None
    if state["first_disconnect"] is not None:
        penalty = leaver_penalty(base=rules["base"], payer=state["first_disconnect"], head=state["head"])
        if state["seats"][state["first_disconnect"]].get("left"):
            penalty["left"] = True
        coins = [c + p for c, p in zip(coins, penalty["coins"], strict=True)]
        house += penalty["house"]
    state["result"] = {
        **score,
        "coins": coins,
        "commission": commission,
        "house": house,
        "penalty": penalty,
        "rows": _played(state),
        "next_head": next_head(state["head"], hands, score["fouled"]),
        "void": False,
    }
    state["phase"], state["deadline"] = "settled", None
    state["phase_seq"] += 1
    return state, [{"type": "settled", "result": state["result"]}]


def void(state: State) -> tuple[State, Events]:
    """End a game interrupted by our own servers: all coins 0, stakes returned, no penalty.

    docs/RULES.md section 2: "Disconnections caused by our own servers or network carry no
    penalty, and the games they interrupt are voided". A voided game does not count in
    the set and leaves the head where it was.
    """
    if state["phase"] != "arrange":
        raise IllegalAction(f"only a game in progress can be voided (this one is {state['phase']})")
    new = _step_copy(state)
    new["result"] = {
        "units": [0] * PLAYERS,
        "coins": [0] * PLAYERS,
        "commission": 0,
        "house": 0,
        "fouled": [False] * PLAYERS,
        "shoots": [],
        "home_run": None,
        "specials": [],
        "penalty": None,
        "rows": None,
        "next_head": state["head"],
        "void": True,
    }
    new["phase"], new["deadline"] = "void", None
    new["phase_seq"] += 1
    return new, [{"type": "void", "result": new["result"]}]


def result(state: State) -> dict[str, Any] | None:
    """The settlement once the game is over (``sum(coins) + house == 0``), else None."""
    return json_copy(state["result"]) if state["result"] is not None else None


def carry_over(state: State) -> dict[str, Any]:
    """What the next game needs: head, next game of the set, seats still disconnected."""
    if state["result"] is None:
        raise EngineError("carry_over: the game is not over yet")
    return next_carry(
        players=[s["player"] for s in state["seats"]],
        head=state["result"]["next_head"],
        game_in_set=state["game_in_set"],
        set_size=state["rules"]["set_size"],
        counted=not state["result"]["void"],
        disconnected=[s["player"] for s in state["seats"] if not s["connected"]],
    )


def suggestions(state: State, seat: int, k: int = 3) -> list[dict[str, Any]]:
    """The hint button: the solver's ``k`` best distinct choices of 13 cards and rows for
    ``seat``, best first. Empty when the seat has nothing to submit."""
    if not legal_actions(state, seat):
        return []
    from games.engine.solver import solve_trio

    options = solve_trio(list(state["seats"][seat]["cards"]), state["jackpot"], k)
    return [{"type": "arrange", **{row: cards_str(o[row]) for row in ROWS}} for o in options]
