"""What the replay page shows of a record (the player's copy, or the complete record in admin):
the seats, the step-through (:mod:`history.steps`) and the fairness data.

The seats' roles and hand names come from the game's engine package (games/engine/protocol.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _

from games.engine.registry import engine_for
from history.steps import ROWS, replay_steps, row_labels


def _at(values: Any, i: int) -> Any:
    return values[i] if isinstance(values, list) and i < len(values) else None


def _seat(body: Mapping[str, Any], i: int) -> dict[str, Any]:
    seat, result, labels = body["seats"][i], body["result"], row_labels()
    engine = engine_for(body["game"])
    played = [c for row in ROWS for c in (seat.get(row) or [])]
    cards = seat.get("cards")
    return {
        "index": i,
        "player": body["players"][i],
        "roles": [_(role) for role in engine.seat_roles(body, i)],
        "cards": cards,
        "hidden": cards is None,
        "rows": [(labels[row], seat[row]) for row in ROWS if seat.get(row)],
        "unused": [c for c in cards if c not in played] if cards and played else [],
        "declare": seat.get("declare", False),
        "bet": seat.get("bet"),
        "bets": seat.get("bets"),
        "stack": _at(body.get("stacks"), i),
        "units": _at(result.get("units"), i),
        "coins": _at(result.get("coins"), i),
        "fouled": bool(_at(result.get("fouled"), i)),
    }


def replay(body: Mapping[str, Any]) -> dict[str, Any]:
    """The template context of a record's replay."""
    view = body.get("view") or {}
    seats = [_seat(body, i) for i in range(len(body["players"]))]
    return {
        "game": body["game"],
        "hand": body["hand"],
        "seats": seats,
        "steps": replay_steps(body, seats),
        "jackpot": [body["jackpot"]] if body.get("jackpot") else None,
        "table_cards": {"player": body["player_cards"], "banker": body["banker_cards"]}
        if body.get("player_cards") else None,
        "commission": body["result"].get("commission", 0),
        "house_lines": body.get("house_lines") or {},
        "fairness": body["fairness"],
        "hash": body.get("hash"),
        "chain": body["chain"],
        "ledger_transaction": body.get("ledger_transaction"),
        "viewer_seat": view.get("seat"),
        "redacted": view.get("redacted") or [],
    }
