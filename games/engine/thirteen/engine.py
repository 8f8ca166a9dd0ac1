"""The ``thirteen`` state machine (games/engine/protocol.py; docs/RULES.md section 1).

Phases: ``"arrange"`` (every seat submits its rows or declares a natural, within
``rules["arrange_seconds"]``) → ``"settled"`` (all hands revealed, result fixed).
Actions: ``{"type": "arrange", "front": [3 cards], "middle": [5], "back": [5]}`` or
``{"type": "declare"}`` (报到; the rows may be sent along, for show only).
State keeps cards as ints (each seat's ``cards`` and submitted rows); views show strings.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

from games.engine.cards import cards_str
from games.engine.deck import commitment
from games.engine.errors import EngineError, IllegalAction
from games.engine.jsondata import json_copy
from games.engine.protocol import Action, Event, State
from games.engine.thirteen.arrange import arrange
from games.engine.thirteen.hands import deal, hand_record, parse_rows, scored_hand, settle
from games.engine.thirteen.naturals import best_natural
from games.engine.thirteen.rules import MAX_SEATS, MIN_SEATS, commission_rate, eligible, resolve_rules

GAME = "thirteen"
ROWS = ("front", "middle", "back")


def _dealer(carry: dict[str, Any] | None, players: Sequence[str]) -> int:
    """docs/RULES.md "Deal": the button moves one seat clockwise after every game. The button
    goes to the player ``carry_over`` named, or the next one of the old order still here."""
    if not carry:
        return 0
    order = carry.get("order") or []
    start = carry.get("dealer", 0)
    for k in range(len(order)):
        name = order[(start + k) % len(order)]
        if name in players:
            return players.index(name)
    return int(start) % len(players)


def _check_seats(rules: dict[str, Any], seats: Sequence[dict[str, Any]]) -> None:
    if not MIN_SEATS <= len(seats) <= MAX_SEATS:
        raise EngineError(f"seats: thirteen is for {MIN_SEATS}-{MAX_SEATS} players, got {len(seats)}")
    for i, seat in enumerate(seats):
        stack = seat.get("stack")
        if not isinstance(stack, int) or isinstance(stack, bool) or stack < 0:
            raise EngineError(f"seat {i}: stack must be a non-negative integer, got {stack!r}")
        if not eligible(rules, stack):
            need = rules["min_units"] * rules["unit"]
            raise EngineError(
                f"seat {i} ({seat.get('player')}): table money {stack} is below the {need} "
                f"({rules['min_units']} units) needed to be dealt in"
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
    """Deal a game (docs/RULES.md "Deal"); every seat must be eligible (5 units of table money)."""
    full = resolve_rules(rules)
    _check_seats(full, seats)
    players = [str(s.get("player")) for s in seats]
    dealer = _dealer(carry, players)
    hands = deal(server_seed, client_seeds, len(seats), dealer)
    return {
        "game": GAME,
        "phase": "arrange",
        "phase_seq": 1,
        "deadline": now + full["arrange_seconds"],
        "rules": full,
        "dealer": dealer,
        "commitment": commitment(server_seed),
        "server_seed": server_seed,
        "client_seeds": list(client_seeds),
        "seats": [
            {"player": players[i], "stack": s["stack"], "cards": hands[i], "submission": None}
            for i, s in enumerate(seats)
        ],
        "result": None,
    }


def legal_actions(state: State, seat: int) -> list[Action]:
    """What ``seat`` may send: arrange or declare, once, while the hand is being arranged."""
    if state["phase"] != "arrange" or not 0 <= seat < len(state["seats"]):
        return []
    if state["seats"][seat]["submission"] is not None:
        return []
    natural = _natural(tuple(state["seats"][seat]["cards"]))
    return [{"type": "arrange", "front": 3, "middle": 5, "back": 5}, {"type": "declare", "natural": natural}]


@functools.lru_cache(maxsize=4096)
def _natural(cards: tuple[int, ...]) -> str | None:
    """:func:`best_natural` of a seat's 13 cards (ints, as state keeps them), worked out once: every
    view of a seat still arranging lists it. 4,096 entries hold the seats of 1,024 full tables."""
    return best_natural(cards)


def awaiting(state: State) -> list[int]:
    """Seats still to arrange or declare, in seat order (nobody once the hand is settled)."""
    if state["phase"] != "arrange":
        return []
    return [seat for seat, s in enumerate(state["seats"]) if s["submission"] is None]


def _submission(state: State, seat: int, action: Action) -> dict[str, Any]:
    if not isinstance(action, dict) or action.get("type") not in ("arrange", "declare"):
        raise IllegalAction('action: expected {"type": "arrange", ...} or {"type": "declare"}')
    kind = action["type"]
    extra = sorted(set(action) - {"type", "front", "middle", "back"})
    if extra:
        raise IllegalAction(f"action: unknown field {extra[0]!r}")
    cards = state["seats"][seat]["cards"]
    has_rows = any(r in action for r in ("front", "middle", "back"))
    try:
        rows = parse_rows(action, cards, field="action") if kind == "arrange" or has_rows else None
    except EngineError as exc:
        raise IllegalAction(str(exc)) from exc
    return {"declare": kind == "declare", **(rows or {})}


def _check_turn(state: State, seat: int) -> None:
    if state["phase"] != "arrange":
        raise IllegalAction("the hand is already settled")
    if not isinstance(seat, int) or not 0 <= seat < len(state["seats"]):
        raise IllegalAction(f"seat {seat!r} is not at this table")
    if state["seats"][seat]["submission"] is not None:
        raise IllegalAction(f"seat {seat} has already submitted its hand")


def apply(state: State, seat: int, action: Action, *, now: float, auto: bool = False) -> tuple[State, list[Event]]:
    """Take one seat's arrangement or declaration; settle once every seat has submitted."""
    _check_turn(state, seat)
    submission = _submission(state, seat, action)
    new = _step_copy(state)
    new["seats"][seat]["submission"] = {**submission, "auto": auto}
    events: list[Event] = [{"type": "submitted", "seat": seat, "auto": auto}]
    if all(s["submission"] is not None for s in new["seats"]):
        events += _settle(new)
    return new, events


def _step_copy(state: State) -> State:
    """The copy of ``state`` a step changes: a new top level, a new list of seats and a new dict for
    every seat. What lies deeper is shared with ``state``, and nothing changes it in place: the
    rules, the client seeds and each seat's cards are fixed at the deal; a step sets a seat's
    ``submission`` and the ``result`` as new values, whole."""
    return {**state, "seats": [dict(seat) for seat in state["seats"]]}


def _settle(state: State) -> list[Event]:
    """Score every hand and fix the result (sets keys of the step's copy ``apply`` made)."""
    hands, records = [], []
    for s in state["seats"]:
        cards = s["cards"]
        sub = s["submission"]
        rows = {r: sub[r] for r in ROWS} if "front" in sub else None
        hand = scored_hand(cards, rows, sub["declare"])
        hands.append(hand)
        records.append(hand_record(cards, rows, hand, sub["declare"]))
    rules = state["rules"]
    result = settle(
        hands,
        dealer=state["dealer"],
        unit=rules["unit"],
        stacks=[s["stack"] for s in state["seats"]],
        rate=commission_rate(rules["commission_percent"]),
    )
    result["hands"] = records
    state.update(phase="settled", phase_seq=state["phase_seq"] + 1, deadline=None, result=result)
    return [{"type": "showdown", "hands": records}, {"type": "settled", "result": result}]


def deadline(state: State) -> float | None:
    """End of the arranging time, or None once settled."""
    return state["deadline"] if state["phase"] == "arrange" else None


def on_deadline(state: State, *, now: float) -> tuple[State, list[Event]]:
    """Time is up: auto-play every seat that has not submitted (events marked ``auto``)."""
    if state["phase"] != "arrange" or now < state["deadline"]:
        return state, []
    events: list[Event] = []
    for seat, s in enumerate(state["seats"]):
        if s["submission"] is None:
            state, more = apply(state, seat, auto_action(state, seat), now=now, auto=True)
            events += more
    return state, events


def auto_action(state: State, seat: int) -> Action:
    """A never-fouled arrangement (:func:`games.engine.thirteen.arrange.arrange`); a hand
    holding a natural worth at least its best rows declares it, the rows sent along for show."""
    best = arrange(state["seats"][seat]["cards"])
    rows = {row: cards_str(best[row]) for row in ROWS}
    return {"type": "declare" if best["declare"] else "arrange", **rows}


def result(state: State) -> dict[str, Any] | None:
    """The settlement (docs/RULES.md "Money"): units, coins, commission, house, fouls, naturals,
    pair details; ``sum(coins) + house == 0``. None before settlement."""
    settled: dict[str, Any] | None = json_copy(state["result"])
    return settled


def carry_over(state: State) -> dict[str, Any]:
    """The dealer button moves one seat clockwise for the next game."""
    players = [s["player"] for s in state["seats"]]
    return {"dealer": (state["dealer"] + 1) % len(players), "order": players}


def suggestions(state: State, seat: int, k: int = 3) -> list[Action]:
    """The hint button: the solver's ``k`` best distinct arrangements for ``seat``, best first
    (all declare a natural worth at least the best rows, its rows for show). Empty when the
    seat has nothing to submit."""
    if not legal_actions(state, seat):
        return []
    from games.engine.solver import solve_thirteen

    options = solve_thirteen(list(state["seats"][seat]["cards"]), k)
    return [{"type": "declare" if o["declare"] else "arrange", **{r: cards_str(o[r]) for r in ROWS}} for o in options]
