"""Player moves, timeouts and auto-play (protocol ``legal_actions`` / ``apply`` /
``deadline`` / ``on_deadline`` / ``auto_action`` / ``suggestions``; docs/RULES.md section 3).

Actions: ``{"type": "bid"}`` / ``{"type": "pass"}`` (搶莊), ``{"type": "accept"}`` /
``{"type": "decline"}`` (輪莊 offer), ``{"type": "bet", "multiplier": X}`` (bet multiplier,
every mode but ``house``), ``{"type": "bet", "bets": {"player": n, …}}`` (house table,
stakes in minor units, ``{}`` for none) and ``{"type": "reveal"}`` (攤牌).

Auto-play on timeout: pass on bids, decline the bank, bet multiplier 1 (the smallest
allowed if 1 is not), no house bets, reveal. Auto moves are marked ``"auto": True``.
Bids and bets are simultaneous: their events carry no values until the phase ends.
"""

from __future__ import annotations

from typing import Any

from games.engine.cards import cards_str
from games.engine.errors import EngineError, IllegalAction
from games.engine.samgong.house import BET_KINDS, check_bets
from games.engine.samgong.machine import advance, next_offer, set_banker
from games.engine.samgong.table import Event, State, pending, seat_count, step_copy

Action = dict[str, Any]


def legal_actions(state: State, seat: int) -> list[Action]:
    """Action templates ``seat`` may send now (empty when it has nothing to do)."""
    if seat not in pending(state):
        return []
    phase = state["phase"]
    if phase == "bid":
        return [{"type": "bid"}, {"type": "pass"}]
    if phase == "offer":
        return [{"type": "accept"}, {"type": "decline"}]
    if phase == "reveal":
        return [{"type": "reveal"}]
    if state["mode"] == "house":
        rules = state["rules"]
        even = ["player", "banker"] if rules["even_main_bets"] else []
        template = {kind: 0 for kind in BET_KINDS}
        return [{"type": "bet", "bets": template, "max_total": state["seats"][seat]["stack"], "even": even}]
    return [{"type": "bet", "multiplier": x} for x in state["rules"]["bet_multipliers"]]


def apply(state: State, seat: int, action: Action, *, now: float) -> tuple[State, list[Event]]:
    """Apply one move; :class:`IllegalAction` with a readable reason leaves ``state`` untouched."""
    verify(state, seat, action)
    new = step_copy(state)
    events: list[Event] = []
    _act(new, seat, action, now, False, events)
    return new, events


def verify(state: State, seat: int, action: Action) -> None:
    """Raise :class:`IllegalAction` unless ``seat`` may play ``action`` now."""
    if not isinstance(seat, int) or not 0 <= seat < seat_count(state):
        raise IllegalAction(f"no seat {seat!r} at this table")
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        raise IllegalAction('an action is a mapping with a "type"')
    legal = legal_actions(state, seat)
    if not legal:
        raise IllegalAction(f"seat {seat} has nothing to do in phase {state['phase']}")
    kind = action["type"]
    if kind not in {a["type"] for a in legal}:
        raise IllegalAction(f"{kind!r} is not allowed in phase {state['phase']}")
    if kind == "bet" and state["mode"] == "house":
        try:
            check_bets(action.get("bets"), state["seats"][seat]["stack"], state["rules"])
        except EngineError as exc:
            raise IllegalAction(str(exc)) from exc
    elif kind == "bet" and action.get("multiplier") not in state["rules"]["bet_multipliers"]:
        allowed = ", ".join(str(x) for x in state["rules"]["bet_multipliers"])
        raise IllegalAction(f"bet multiplier {action.get('multiplier')!r} not allowed; choose one of {allowed}")


def _act(state: State, seat: int, action: Action, now: float, auto: bool, events: list[Event]) -> None:
    kind = action["type"]
    event: Event = {"type": kind, "seat": seat, "auto": auto}
    if auto and seat not in state.setdefault("auto_seats", []):
        state["auto_seats"].append(seat)  # shown to everyone: this seat was played by the server
    if kind in ("bid", "pass"):
        state["bids"][seat] = kind == "bid"
        event["type"] = "bid_placed"
    elif kind == "bet" and state["mode"] == "house":
        state["house_bets"][seat] = check_bets(action["bets"], state["seats"][seat]["stack"], state["rules"])
        event["type"] = "bet_placed"
    elif kind == "bet":
        state["bets"][seat] = action["multiplier"]
        event["type"] = "bet_placed"
    elif kind == "reveal":
        state["revealed"][seat] = True
        event["cards"] = cards_str(state["cards"][seat])
    events.append(event)
    if kind == "accept":
        set_banker(state, seat, "accepted", now, events)
    elif kind == "decline":
        next_offer(state, now, events)
    else:
        advance(state, now, events)


def deadline(state: State) -> float | None:
    """When the current phase times out (epoch seconds), or None."""
    value = state.get("deadline")
    return None if value is None else float(value)


def on_deadline(state: State, *, now: float) -> tuple[State, list[Event]]:
    """The phase timed out: every seat still to act plays :func:`auto_action`
    (``"auto": True``). Before the deadline, or once settled, nothing happens."""
    limit = deadline(state)
    if limit is None or now < limit:
        return step_copy(state), []
    new = step_copy(state)
    events: list[Event] = []
    for seat in pending(state):
        _act(new, seat, auto_action(state, seat), now, True, events)
    return new, events


def auto_action(state: State, seat: int) -> Action:
    """What a timed-out or disconnected seat plays: pass, decline, bet 1, no house bet, reveal."""
    if seat not in pending(state):
        raise IllegalAction(f"seat {seat} has nothing to do in phase {state['phase']}")
    phase = state["phase"]
    if phase == "bid":
        return {"type": "pass"}
    if phase == "offer":
        return {"type": "decline"}
    if phase == "reveal":
        return {"type": "reveal"}
    if state["mode"] == "house":
        return {"type": "bet", "bets": {}}
    allowed = state["rules"]["bet_multipliers"]
    return {"type": "bet", "multiplier": 1 if 1 in allowed else allowed[0]}


def suggestions(state: State, seat: int, k: int = 3) -> list[Action]:
    """The hint button: the move the server would play for the seat (:func:`auto_action`);
    empty when it has nothing to do. 三公 has nothing to arrange, so there is one at most."""
    return [auto_action(state, seat)][:k] if legal_actions(state, seat) else []
