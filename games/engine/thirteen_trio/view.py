"""What each seat may see (games/engine/protocol.py ``view``; docs/RULES.md section 2).

A player sees its own 17 cards and the jackpot card from the deal on. Other players'
cards appear only after settlement, and then only the 13 they played: the four cards
each player left out stay hidden from everybody else for good. A voided game reveals
nothing. Spectators (``seat=None``) never see a hidden card.
"""

from __future__ import annotations

from typing import Any

from games.engine.cards import card_str, cards_str
from games.engine.jsondata import json_copy
from games.engine.thirteen_trio.highlights import highlights
from games.engine.thirteen_trio.rules import ROWS, game_minimum, role, set_minimum

State = dict[str, Any]


def _seat_view(state: State, index: int, viewer: int | None) -> dict[str, Any]:
    s = state["seats"][index]
    mine = index == viewer
    shown = mine or state["phase"] == "settled"
    return {
        "player": s["player"],
        "stack": s["stack"],
        "role": role(state["head"], index),
        "connected": s["connected"],
        "arranged": s["rows"] is not None,
        "auto": s["auto"],
        "cards": cards_str(s["cards"]) if mine else None,
        "rows": {row: cards_str(s["rows"][row]) for row in ROWS} if shown and s["rows"] is not None else None,
    }


def view(state: State, seat: int | None) -> dict[str, Any]:
    """The state as ``seat`` may see it (``None``: a spectator); never a hidden card."""
    rules = state["rules"]
    return {
        "game": state["game"],
        "phase": state["phase"],
        "phase_seq": state["phase_seq"],
        "deadline": state["deadline"],
        "extended": state["extended"],
        "you": seat,
        "head": state["head"],
        "start_seat": state["start_seat"],
        "jackpot": card_str(state["jackpot"]),
        "game_in_set": state["game_in_set"],
        "set_size": rules["set_size"],
        "base": rules["base"],
        "minimum": set_minimum(rules) if state["game_in_set"] == 1 else game_minimum(rules),
        "game_minimum": game_minimum(rules),
        "commitment": state["commitment"],
        "seats": [_seat_view(state, i, seat) for i in range(len(state["seats"]))],
        "result": json_copy(state["result"]),
        "highlights": highlights(state["result"], base=rules["base"]),
    }
