"""High card, the contract's example game (games/engine/protocol.py): each player is dealt one
card from the hand's seeded deck; once every card is shown (or the one phase's deadline shows
the rest), the highest rank wins one unit from each lower card, equal ranks push, and the house
takes its commission from what a seat won.

>>> score(["As", "Kd", "Ks"], unit=100, commission_percent=5)
{'units': [2, -1, -1], 'coins': [190, -100, -100], 'commission': 10, 'commissions': [10, 0, 0], 'house': 10}
>>> score(["7c", "7d"], unit=100, commission_percent=5)["coins"]
[0, 0]
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any

from games.engine.cards import card_str, parse_cards, rank_of
from games.engine.deck import shuffle
from games.engine.errors import EngineError, IllegalAction

GAME = "high_card"
PHASE = "show"
MIN_PLAYERS, MAX_PLAYERS = 2, 6
DEFAULT_RULES: dict[str, int] = {"unit": 100, "commission_percent": 5, "show_seconds": 20}

State = dict[str, Any]
Events = list[dict[str, Any]]


def resolve_rules(rules: dict[str, Any]) -> dict[str, int]:
    """The default rule set with a stake level's overrides."""
    return {**DEFAULT_RULES, **{k: int(v) for k, v in rules.items() if k in DEFAULT_RULES}}


def deal(server_seed: str, client_seeds: Sequence[str], players: int) -> list[int]:
    """One card to each seat, from the top of the seed's deck, seat 0 first."""
    return shuffle(server_seed, client_seeds)[:players]


def score(cards: Sequence[str], *, unit: int, commission_percent: int) -> dict[str, Any]:
    """Each pair of seats: the higher rank wins one unit; a seat's winnings pay the commission
    (rounded down) to the house."""
    ranks = [rank_of(c) for c in parse_cards(list(cards))]
    units = [sum((r > other) - (r < other) for other in ranks) for r in ranks]
    gross = [u * unit for u in units]
    fees = [g * commission_percent // 100 if g > 0 else 0 for g in gross]
    return {"units": units, "coins": [g - f for g, f in zip(gross, fees, strict=True)],
            "commission": sum(fees), "commissions": fees, "house": sum(fees)}


def new_hand(*, rules: dict[str, Any], seats: Sequence[dict[str, Any]], carry: dict[str, Any] | None,
             server_seed: str, client_seeds: Sequence[str] = (), now: float) -> State:
    """Deal one card each and open the one phase, ``show``, with its deadline."""
    resolved = resolve_rules(rules)
    if not MIN_PLAYERS <= len(seats) <= MAX_PLAYERS:
        raise EngineError(f"seats: high card needs {MIN_PLAYERS}-{MAX_PLAYERS} players, got {len(seats)}")
    for i, seat in enumerate(seats):
        if int(seat["stack"]) < (len(seats) - 1) * resolved["unit"]:
            raise EngineError(f"seats[{i}].stack: below one unit for each other player")
    cards = deal(server_seed, client_seeds, len(seats))
    return {
        "game": GAME, "rules": resolved, "phase": PHASE, "phase_seq": 1, "deadline": now + resolved["show_seconds"],
        "seats": [{"player": str(s["player"]), "stack": int(s["stack"]), "card": card, "shown": False}
                  for s, card in zip(seats, cards, strict=True)],
        "result": None,
    }


def legal_actions(state: State, seat: int) -> list[dict[str, Any]]:
    """``show`` for a seat whose card is still face down."""
    return [{"type": "show"}] if state["phase"] == PHASE and not state["seats"][seat]["shown"] else []


def awaiting(state: State) -> list[int]:
    """The seats still to show their card."""
    return [i for i in range(len(state["seats"])) if legal_actions(state, i)]


def deadline(state: State) -> float | None:
    deadline_at: float | None = state["deadline"]
    return deadline_at


def auto_action(state: State, seat: int) -> dict[str, Any]:
    return {"type": "show"}


def apply(state: State, seat: int, action: dict[str, Any], *, now: float) -> tuple[State, Events]:
    """Show the seat's card; the last one settles the hand."""
    if action != {"type": "show"} or not legal_actions(state, seat):
        raise IllegalAction(f"action: seat {seat} may not {action.get('type')!r} now")
    new = copy.deepcopy(state)
    new["seats"][seat]["shown"] = True
    events: Events = [{"type": "show", "seat": seat}]
    return _settle_if_done(new, events)


def on_deadline(state: State, *, now: float) -> tuple[State, Events]:
    """Time is up: every card still face down is shown for its seat."""
    if state["phase"] != PHASE:
        return state, []
    new, events = copy.deepcopy(state), []
    for seat in awaiting(state):
        new["seats"][seat]["shown"] = True
        events.append({"type": "show", "seat": seat, "auto": True})
    return _settle_if_done(new, events)


def _settle_if_done(state: State, events: Events) -> tuple[State, Events]:
    if awaiting(state):
        return state, events
    rules = state["rules"]
    cards = [card_str(s["card"]) for s in state["seats"]]
    state.update(phase="settled", phase_seq=state["phase_seq"] + 1, deadline=None,
                 result={**score(cards, unit=rules["unit"], commission_percent=rules["commission_percent"]),
                         "cards": cards})
    return state, [*events, {"type": "settled"}]


def result(state: State) -> dict[str, Any] | None:
    found: dict[str, Any] | None = state["result"]
    return found


def carry_over(state: State) -> dict[str, Any]:
    """Nothing carries from one hand to the next."""
    return {}


def view(state: State, seat: int | None) -> dict[str, Any]:
    """A seat sees its own card; every card once the hand is settled."""
    over = state["result"] is not None
    return {
        "game": GAME, "phase": state["phase"], "phase_seq": state["phase_seq"], "deadline": state["deadline"],
        "seat": seat, "legal_actions": legal_actions(state, seat) if seat is not None else [],
        "seats": [{"player": s["player"], "stack": s["stack"], "shown": s["shown"],
                   "card": card_str(s["card"]) if over or i == seat else None}
                  for i, s in enumerate(state["seats"])],
        "result": state["result"], "highlights": [],
    }


def bot_move(view: dict[str, Any], rng: Any) -> dict[str, Any] | None:
    """Show the card when it may (there is nothing else to decide)."""
    return dict(view["legal_actions"][0]) if view.get("legal_actions") else None
