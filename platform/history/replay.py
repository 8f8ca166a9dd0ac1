"""What the replay page shows of a record (the player's copy, or the complete record in admin).

The seats' roles and hand names come from the game's engine package (games/engine/protocol.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _

from games.engine.registry import engine_for

ROWS = ("front", "middle", "back")


def _row_labels() -> dict[str, str]:
    return {"front": _("front"), "middle": _("middle"), "back": _("back")}


def _at(values: Any, i: int) -> Any:
    return values[i] if isinstance(values, list) and i < len(values) else None


def _seat(body: Mapping[str, Any], i: int) -> dict[str, Any]:
    seat, result, labels = body["seats"][i], body["result"], _row_labels()
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
        "hand_name": engine.hand_label(body, i),
    }


def _describe(body: Mapping[str, Any], seat: int | None, action: Mapping[str, Any]) -> tuple[str, list[str] | str]:
    """``(what happened, cards or amount)`` for one logged action; automatic plays (logged
    as the engine's events) are filled in from the seat's recorded choices."""
    kind = str(action.get("type"))
    s = body["seats"][seat] if seat is not None and 0 <= seat < len(body["seats"]) else {}
    rows = [c for row in ROWS for c in ((action if "front" in action else s).get(row) or [])]
    if kind in ("declare", "submitted") and (kind == "declare" or s.get("declare")):
        return _("declared a natural"), rows
    if kind in ("arrange", "arranged", "submitted"):
        return _("arranged"), rows
    if kind == "bid_placed":
        kind = "bid" if _at(body.get("bids"), seat or 0) else "pass"
    if kind in ("bet", "bet_placed"):
        bets = action.get("bets", s.get("bets"))
        if bets is not None:
            return _("placed bets"), ", ".join(f"{k} {v}" for k, v in bets.items()) or "—"
        return _("bet"), f"×{action.get('multiplier', s.get('bet'))}"
    if kind == "reveal":
        return _("revealed"), list(s.get("cards") or [])
    simple = {"bid": _("bid for the bank"), "pass": _("passed"), "accept": _("took the bank"),
              "decline": _("declined the bank"), "disconnect": _("disconnected"), "reconnect": _("reconnected")}
    return simple.get(kind, kind), ""


def _timeline(body: Mapping[str, Any]) -> list[dict[str, Any]]:
    out = []
    for a in body.get("actions", []):
        seat = a.get("seat")
        what, detail = _describe(body, seat, a.get("action") or {})
        who = body["players"][seat]["name"] if seat is not None and seat < len(body["players"]) else _("server")
        out.append({"at": a.get("at"), "who": who, "what": what, "cards": detail if isinstance(detail, list) else None,
                    "detail": detail if isinstance(detail, str) else "", "auto": bool(a.get("auto"))})
    return out


def replay(body: Mapping[str, Any]) -> dict[str, Any]:
    """The template context of a record's replay."""
    view = body.get("view") or {}
    return {
        "game": body["game"],
        "hand": body["hand"],
        "seats": [_seat(body, i) for i in range(len(body["players"]))],
        "timeline": _timeline(body),
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
