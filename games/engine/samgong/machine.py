"""The 三公 state machine: starting a hand and moving between phases (docs/RULES.md section 3).

Phases per mode (``settled`` ends every hand):

* ``all_compare``: ``bet`` → deal 3 each → ``reveal`` → settle.
* ``banker_bid``: 2 cards face up to everyone; ``bid`` (skipped while the bank is kept)
  → ``bet`` → 3rd card → ``reveal`` → settle.
* ``banker_rotate``: ``offer`` (one seat at a time) → ``bet`` → deal 3 each → ``reveal`` → settle.
* ``pairwise``: deal 3 each → ``reveal`` → settle.
* ``house``: ``bet`` → deal the 閒 and 莊 hands → settle.

Cards go one at a time counter-clockwise: from the banker once there is one (the 3rd
card in ``banker_bid``, all cards in ``banker_rotate``); from the kept banker, else seat
0, for the face-up cards of ``banker_bid``; from seat 0 in ``all_compare`` and ``pairwise``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from games.engine.cards import cards_str
from games.engine.deck import shuffle
from games.engine.errors import EngineError
from games.engine.jsondata import json_copy
from games.engine.samgong.fair import first_in, lottery
from games.engine.samgong.house import settle_house
from games.engine.samgong.rules import BANKER_MODES, min_stack, resolve_rules
from games.engine.samgong.settle import settle_all_compare, settle_banker, settle_pairwise
from games.engine.samgong.table import Event, State, deal, deal_table, enter, pending, seat_count, stacks


def new_hand(
    *,
    rules: dict[str, Any],
    seats: Sequence[dict[str, Any]],
    carry: dict[str, Any] | None,
    server_seed: str,
    client_seeds: Sequence[str] = (),
    now: float,
) -> State:
    """Start a 三公 hand (protocol ``new_hand``); ``rules["mode"]`` picks the mode."""
    resolved = resolve_rules(rules)
    seat_list = _check_seats(seats, resolved)
    n = len(seat_list)
    state: State = {
        "game": "samgong",
        "mode": resolved["mode"],
        "rules": resolved,
        "phase": "start",
        "phase_seq": 0,
        "deadline": None,
        "seats": seat_list,
        "deck": shuffle(server_seed, client_seeds),
        "next_card": 0,
        "cards": [[] for _ in range(n)],
        "public": [0] * n,
        "revealed": [False] * n,
        "bids": [None] * n,
        "bets": [None] * n,
        "house_bets": [None] * n,
        "banker": None,
        "banker_how": None,
        "offer": None,
        "offers_made": 0,
        "lots": {label: lottery(server_seed, label, n, client_seeds) for label in ("banker", "offer")},
        "table_cards": None,
        "settlement": None,
        "carry_in": _same_mode_carry(carry, resolved["mode"]),
    }
    events: list[Event] = []
    _START[state["mode"]](state, now, events)
    return state


def _check_seats(seats: Sequence[dict[str, Any]], rules: dict[str, Any]) -> list[dict[str, Any]]:
    n, lo, hi = len(seats), rules["min_players"], rules["max_players"]
    if not lo <= n <= hi:
        raise EngineError(f"seats: {rules['mode']} needs {lo}..{hi} players, got {n}")
    floor, out = min_stack(rules), []
    for i, seat in enumerate(seats):
        stack = seat.get("stack") if isinstance(seat, dict) else None
        if not isinstance(stack, int) or isinstance(stack, bool):
            raise EngineError(f"seats[{i}].stack: expected an integer number of minor units")
        if stack < floor:
            raise EngineError(f"seats[{i}].stack: {stack} is below the table minimum {floor}")
        out.append({"player": str(seat.get("player", i)), "stack": stack})
    return out


def _same_mode_carry(carry: dict[str, Any] | None, mode: str) -> dict[str, Any] | None:
    return dict(carry) if carry and carry.get("mode") == mode else None


def _seat_of(state: State, player: Any) -> int | None:
    players = [seat["player"] for seat in state["seats"]]
    return players.index(player) if player in players else None


def _start_all_compare(state: State, now: float, events: list[Event]) -> None:
    enter(state, "bet", now, events)


def _start_pairwise(state: State, now: float, events: list[Event]) -> None:
    deal(state, 0, 3, events)
    enter(state, "reveal", now, events)


def _start_house(state: State, now: float, events: list[Event]) -> None:
    enter(state, "bet", now, events)


def _start_banker_bid(state: State, now: float, events: list[Event]) -> None:
    """2 face-up cards every hand; the bank is kept while the carry says so and the
    banker is still seated (docs/RULES.md `banker_bid`)."""
    carry = state["carry_in"] or {}
    kept = _seat_of(state, carry.get("banker_player")) if carry.get("keep_bank") else None
    deal(state, 0 if kept is None else kept, 2, events)
    state["public"] = [2] * seat_count(state)
    events.append({"type": "face_up", "cards": [cards_str(c) for c in state["cards"]]})
    if kept is None:
        enter(state, "bid", now, events)
    else:
        set_banker(state, kept, "kept", now, events)


def _start_banker_rotate(state: State, now: float, events: list[Event]) -> None:
    """The bank is offered first to the seat counter-clockwise of the last banker (first
    hand: a seat drawn from the ``offer`` lottery)."""
    carry, n = state["carry_in"] or {}, seat_count(state)
    offer = _seat_of(state, carry.get("next_offer_player"))
    last_banker = _seat_of(state, carry.get("banker_player"))
    if offer is None and last_banker is not None:
        offer = (last_banker - 1) % n
    if offer is None and isinstance(carry.get("next_offer"), int):
        offer = carry["next_offer"] % n
    state["offer"] = state["lots"]["offer"][0] if offer is None else offer
    enter(state, "offer", now, events)


_START = {
    "all_compare": _start_all_compare,
    "banker_bid": _start_banker_bid,
    "banker_rotate": _start_banker_rotate,
    "pairwise": _start_pairwise,
    "house": _start_house,
}


def set_banker(state: State, seat: int, how: str, now: float, events: list[Event]) -> None:
    """Seat the banker and open the betting."""
    state["banker"], state["banker_how"], state["offer"] = seat, how, None
    events.append({"type": "banker", "seat": seat, "how": how, "bids": list(state["bids"])})
    enter(state, "bet", now, events)


def pick_bidder(state: State) -> tuple[int, str]:
    """搶莊: the bidder with the most table money; a tie or no bidder is drawn from the
    ``banker`` lottery (docs/RULES.md `banker_bid`)."""
    bidders = [s for s, bid in enumerate(state["bids"]) if bid]
    if not bidders:
        return first_in(state["lots"]["banker"], range(seat_count(state))), "random"
    top = max(state["seats"][s]["stack"] for s in bidders)
    richest = [s for s in bidders if state["seats"][s]["stack"] == top]
    if len(richest) == 1:
        return richest[0], "bid"
    return first_in(state["lots"]["banker"], richest), "bid_tie"


def next_offer(state: State, now: float, events: list[Event]) -> None:
    """輪莊: a declined offer moves counter-clockwise; when every seat declined, the
    banker is drawn from the ``banker`` lottery."""
    state["offers_made"] += 1
    n = seat_count(state)
    if state["offers_made"] >= n:
        set_banker(state, first_in(state["lots"]["banker"], range(n)), "random", now, events)
        return
    state["offer"] = (state["offer"] - 1) % n
    enter(state, "offer", now, events)


def advance(state: State, now: float, events: list[Event]) -> None:
    """Leave a phase once nobody is pending: bidding → banker, bets → cards, reveal → settle."""
    if pending(state):
        return
    phase, mode = state["phase"], state["mode"]
    if phase == "bid":
        seat, how = pick_bidder(state)
        set_banker(state, seat, how, now, events)
    elif phase == "bet":
        placed = state["house_bets"] if mode == "house" else state["bets"]
        events.append({"type": "bets", "bets": json_copy(placed)})
        _after_bets(state, now, events)
    elif phase == "reveal":
        settle(state, events)


def _after_bets(state: State, now: float, events: list[Event]) -> None:
    mode = state["mode"]
    if mode == "house":
        deal_table(state, events)
        settle(state, events)
        return
    if mode == "all_compare":
        deal(state, 0, 3, events)
    else:
        deal(state, state["banker"], 1 if mode == "banker_bid" else 3, events)
    enter(state, "reveal", now, events)


def settle(state: State, events: list[Event]) -> None:
    """Score the hand (``games.engine.samgong.settle`` / ``house``) and close it."""
    mode, rules, money = state["mode"], state["rules"], stacks(state)
    bets = [b or 0 for b in state["bets"]]
    if mode == "house":
        cards = state["table_cards"]
        record = settle_house(cards["player"], cards["banker"], state["house_bets"], rules)
        record["table_cards"] = {k: cards_str(v) for k, v in cards.items()}
    elif mode == "all_compare":
        record = settle_all_compare(state["cards"], bets, money, rules)
    elif mode == "pairwise":
        record = settle_pairwise(state["cards"], money, rules)
    else:
        record = settle_banker(state["cards"], bets, money, state["banker"], rules)
    record.update(mode=mode, bets=json_copy(state["house_bets"]) if mode == "house" else bets)
    record["cards"] = [cards_str(c) for c in state["cards"]]
    record.setdefault("banker", state["banker"] if mode in BANKER_MODES else None)
    state["settlement"] = record
    state["phase"], state["deadline"] = "settled", None
    state["phase_seq"] += 1
    events.append({"type": "settle", **json_copy(record)})
