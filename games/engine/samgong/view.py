"""What each seat may see, the settled result and the table carry-over (protocol ``view`` /
``result`` / ``carry_over``; docs/RULES.md section 3).

Visibility: a seat sees its own cards; everyone sees the face-up cards of ``banker_bid``,
a seat's cards once it reveals, and every card once the hand is settled. Hidden cards
are shown as ``None``. Bids and bet multipliers are secret until their phase ends
(others see only that a seat has acted). The deck and the seat lotteries never appear.
"""

from __future__ import annotations

from typing import Any

from games.engine.cards import card_str
from games.engine.jsondata import json_copy
from games.engine.samgong.hands import evaluate, is_zero_point
from games.engine.samgong.highlights import highlights
from games.engine.samgong.moves import legal_actions
from games.engine.samgong.rules import BANKER_MODES
from games.engine.samgong.table import State, pending, seat_count


def view(state: State, seat: int | None) -> dict[str, Any]:
    """``seat``'s view of the hand (``None``: a spectator)."""
    rules = state["rules"]
    table = state["table_cards"]
    to_act = pending(state)
    return {
        "game": "samgong",
        "mode": state["mode"],
        "phase": state["phase"],
        "phase_seq": state["phase_seq"],
        "deadline": state["deadline"],
        "base": rules["base"],
        "ranking": rules["ranking"],
        "bet_multipliers": list(rules["bet_multipliers"]),
        "you": seat,
        "banker": state["banker"],
        "offer": state["offer"],
        "seats": [_seat_view(state, s, seat, to_act) for s in range(seat_count(state))],
        "table_cards": None if table is None else {k: [card_str(c) for c in v] for k, v in table.items()},
        "legal_actions": [] if seat is None else legal_actions(state, seat),
        "result": result(state),
        "highlights": highlights(state.get("settlement"), mode=state["mode"]),
    }


def _seat_view(state: State, s: int, viewer: int | None, to_act: list[int]) -> dict[str, Any]:
    own, settled = s == viewer, state["phase"] == "settled"
    open_all = own or settled or state["revealed"][s]
    cards = [card_str(c) if open_all or i < state["public"][s] else None for i, c in enumerate(state["cards"][s])]
    waiting = state["phase"] in ("bid", "bet")
    hide_choice = waiting and not own and not settled
    return {
        "player": state["seats"][s]["player"],
        "stack": state["seats"][s]["stack"],
        "cards": cards,
        "revealed": state["revealed"][s] or settled,
        "acted": s not in to_act,
        "auto": s in state.get("auto_seats", []),
        "bid": None if state["phase"] == "bid" and not own else state["bids"][s],
        "bet": None if hide_choice else state["bets"][s],
        "house_bets": None if hide_choice else json_copy(state["house_bets"][s]),
    }


def result(state: State) -> dict[str, Any] | None:
    """The settlement once the hand is settled, else None: ``coins`` (net per seat after
    the fee), ``gross``, ``commissions``, ``commission``, ``house`` (commission plus the
    house bank's net), ``winner``, ``hands`` (name ids), ``multipliers``, ``units``,
    ``cards``, ``bets`` and ``banker``; ``sum(coins) + house == 0``."""
    record = state.get("settlement")
    return None if record is None else json_copy(record)


def carry_over(state: State) -> dict[str, Any]:
    """For the next hand: ``banker`` / ``banker_player``, ``keep_bank`` (搶莊: kept until a
    0-point banker hand or no table money left), ``next_offer`` / ``next_offer_player``
    (輪莊: the seat counter-clockwise of this hand's banker)."""
    record = state.get("settlement")
    if record is None:
        return json_copy(state["carry_in"]) or {"mode": state["mode"]}
    carry: dict[str, Any] = {
        "mode": state["mode"],
        "banker": None,
        "banker_player": None,
        "keep_bank": False,
        "next_offer": None,
        "next_offer_player": None,
    }
    banker = state["banker"]
    if state["mode"] not in BANKER_MODES or banker is None:
        return carry
    n = seat_count(state)
    carry.update(banker=banker, banker_player=state["seats"][banker]["player"])
    if state["mode"] == "banker_bid":
        left = state["seats"][banker]["stack"] + record["coins"][banker]
        zero = is_zero_point(evaluate(state["cards"][banker], state["rules"]["ranking"]))
        carry["keep_bank"] = left > 0 and not zero
    else:
        nxt = (banker - 1) % n
        carry.update(next_offer=nxt, next_offer_player=state["seats"][nxt]["player"])
    return carry
