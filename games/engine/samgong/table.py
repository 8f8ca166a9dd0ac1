"""Hand state helpers shared by the 三公 state machine: phases, timers, dealing.

State is a plain JSON dict (games/engine/protocol.py). The keys this game adds:
``mode``, ``rules`` (the resolved rule set), ``deck`` (the shuffled deck, top first) and
``next_card``, ``cards`` (per seat, dealt so far), ``public`` (per seat, how many of its
first cards are face up to everyone), ``revealed``, ``bids``, ``bets``, ``house_bets``,
``banker``, ``banker_how``, ``offer``, ``offers_made``, ``lots`` (seed-derived seat
lotteries, :mod:`games.engine.samgong.fair`), ``table_cards`` (house mode: the 閒 and 莊
hands), ``settlement`` and ``carry_in``. ``deck`` and ``lots`` never leave the server.
"""

from __future__ import annotations

from typing import Any

from games.engine.cards import cards_str

State = dict[str, Any]
Event = dict[str, Any]

#: Which timer each waiting phase uses.
TIMER_OF = {"bid": "bid", "offer": "offer", "bet": "bet", "reveal": "reveal"}


#: The per-seat lists a step sets entries of (``auto_seats`` is appended to, once there is one).
_PER_SEAT = ("public", "revealed", "bids", "bets", "house_bets", "auto_seats")


def step_copy(state: State) -> State:
    """The copy of ``state`` a move or a timeout changes: a new top level, a new list for each of
    :data:`_PER_SEAT` and for every seat's ``cards`` (dealing appends to them). What lies deeper is
    shared with ``state``, and nothing changes it in place: the deck, the lotteries, the rules,
    the seats and the carry-in are fixed when the hand starts; a step sets a seat's house bets,
    the ``table_cards`` and the ``settlement`` as new values, whole."""
    new = {**state, "cards": [list(cards) for cards in state["cards"]]}
    for key in _PER_SEAT:
        if key in new:
            new[key] = list(new[key])
    return new


def seat_count(state: State) -> int:
    return len(state["seats"])


def enter(state: State, phase: str, now: float, events: list[Event]) -> None:
    """Move to ``phase`` (a new ``phase_seq``; a deadline when the phase waits on players)."""
    state["phase"] = phase
    state["phase_seq"] += 1
    timer = TIMER_OF.get(phase)
    state["deadline"] = None if timer is None else now + state["rules"]["timers"][timer]
    events.append({"type": "phase", "phase": phase, "phase_seq": state["phase_seq"], "deadline": state["deadline"]})


def deal_order(start: int, n: int) -> list[int]:
    """One card at a time counter-clockwise (seat indices run clockwise) from ``start``."""
    return [(start - k) % n for k in range(n)]


def deal(state: State, start: int, rounds: int, events: list[Event]) -> None:
    """Deal ``rounds`` cards to every seat from the top of the deck, counter-clockwise from ``start``."""
    order = deal_order(start, seat_count(state))
    for _ in range(rounds):
        for seat in order:
            state["cards"][seat].append(state["deck"][state["next_card"]])
            state["next_card"] += 1
    events.append({"type": "deal", "order": order, "rounds": rounds})


def deal_table(state: State, events: list[Event]) -> None:
    """House mode: 閒 and 莊 take one card at a time, 閒 first, three each."""
    top = state["deck"][state["next_card"] : state["next_card"] + 6]
    state["next_card"] += 6
    state["table_cards"] = {"player": top[0::2], "banker": top[1::2]}
    events.append({"type": "deal_table", "player": cards_str(top[0::2]), "banker": cards_str(top[1::2])})


def pending(state: State) -> list[int]:
    """Seats the current phase still waits on, in seat order."""
    phase, n = state["phase"], seat_count(state)
    if phase == "bid":
        return [s for s in range(n) if state["bids"][s] is None]
    if phase == "offer":
        return [state["offer"]]
    if phase == "bet" and state["mode"] == "house":
        return [s for s in range(n) if state["house_bets"][s] is None]
    if phase == "bet":
        return [s for s in range(n) if s != state["banker"] and state["bets"][s] is None]
    if phase == "reveal":
        return [s for s in range(n) if not state["revealed"][s]]
    return []


def stacks(state: State) -> list[int]:
    return [int(seat["stack"]) for seat in state["seats"]]
