"""The step-through replay of a hand record: Deal, each player's move in order, each comparison
of the showdown, Coins — every step labelled in the viewer's language.

Built from the body the viewer may see (a player's copy hides what their table never showed:
the trio's unused cards); what differs between games comes from the engine package: the seats'
roles, the showdown's comparisons and their category names (``engine.showdown``, message ids
translated here). Times stay ISO 8601; the page shows them in the viewer's own time zone.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _

from games.engine.registry import engine_for
from games.engine.showdown import Comparison, Outcome, Shown

ROWS = ("front", "middle", "back")


def row_labels() -> dict[str, str]:
    return {"front": _("front"), "middle": _("middle"), "back": _("back")}


def message(msgid: str | None, args: Mapping[str, Any] | None = None) -> str:
    """An engine's message id in the active language, its ``{name}`` arguments filled in."""
    if not msgid:
        return ""
    text = _(msgid)
    try:
        return text.format_map(dict(args or {}))
    except (KeyError, IndexError, ValueError):
        return text


def _name(body: Mapping[str, Any], seat: int | None) -> str:
    players = body["players"]
    return str(players[seat]["name"]) if seat is not None and 0 <= seat < len(players) else _("server")


def _move(body: Mapping[str, Any], seat: int | None, action: Mapping[str, Any]) -> dict[str, Any]:
    """What one logged action did: ``what``, and ``rows`` (label, cards), ``cards`` or ``detail``.
    Automatic plays (logged as the engine's events) are filled in from the seat's recorded choices."""
    kind = str(action.get("type"))
    s = body["seats"][seat] if seat is not None and 0 <= seat < len(body["seats"]) else {}
    source = action if "front" in action else s
    labels = row_labels()
    rows = [(labels[row], list(source[row])) for row in ROWS if source.get(row)]
    if kind in ("declare", "submitted") and (kind == "declare" or s.get("declare")):
        return {"what": _("declared a natural"), "rows": rows}
    if kind in ("arrange", "arranged", "submitted"):
        return {"what": _("arranged"), "rows": rows}
    if kind == "bid_placed":
        bids = body.get("bids") or []
        kind = "bid" if seat is not None and seat < len(bids) and bids[seat] else "pass"
    if kind in ("bet", "bet_placed"):
        bets = action.get("bets", s.get("bets"))
        if bets is not None:
            terms = engine_for(body["game"]).move_terms
            return {"what": _("placed bets"), "bets": {message(terms.get(k, k)): v for k, v in bets.items()},
                    "detail": "" if bets else _("No bet")}
        return {"what": _("bet"), "detail": f"×{action.get('multiplier', s.get('bet'))}"}
    if kind == "disconnect" and action.get("leave") is True:
        return {"what": _("left the table")}  # by choice: no connection was lost
    if kind == "reveal":
        return {"what": _("revealed"), "cards": list(s.get("cards") or [])}
    simple = {"bid": _("bid for the bank"), "pass": _("passed"), "accept": _("took the bank"),
              "decline": _("declined the bank"), "disconnect": _("disconnected"), "reconnect": _("reconnected")}
    return {"what": simple.get(kind, kind)}


def _deal(body: Mapping[str, Any], seats: list[dict[str, Any]]) -> dict[str, Any]:
    return {"kind": "deal", "title": _("Deal"), "at": body["hand"].get("started_at"), "seats": seats,
            "jackpot": [body["jackpot"]] if body.get("jackpot") else None}


def _actions(body: Mapping[str, Any]) -> list[dict[str, Any]]:
    steps = []
    for a in body.get("actions", []):
        seat = a.get("seat")
        move = _move(body, seat, a.get("action") or {})
        steps.append({"kind": "action", "title": f"{_name(body, seat)} {move['what']}", "who": _name(body, seat),
                      "seat": seat, "at": a.get("at"), "auto": bool(a.get("auto")), **move})
    return steps


def _hand(body: Mapping[str, Any], shown: Shown) -> dict[str, Any]:
    seat = shown["seat"]
    roles = engine_for(body["game"]).seat_roles(body, seat) if seat is not None else []
    return {"who": message(shown["title"]) if "title" in shown else _name(body, seat), "seat": seat,
            "roles": [_(role) for role in roles],
            "cards": shown["cards"], "name": message(shown["name"], shown["args"]),
            "note": message(shown.get("note"))}


def outcome_text(body: Mapping[str, Any], outcome: Outcome) -> str:
    """``Alice beats Bob (1)``, ``Alice and Bob tie``, ``Alice wins``, or the engine's own sentence."""
    seats, winner = outcome["seats"], outcome["winner"]
    losers = [s for s in seats if s != winner]
    names = {"winner": _name(body, winner) if winner is not None else "",
             "loser": ", ".join(_name(body, s) for s in losers)}
    if "text" in outcome:
        return message(outcome["text"], {**names, **outcome.get("args", {})})
    if winner is None:
        return _("%(players)s tie") % {"players": " · ".join(_name(body, s) for s in seats)}
    if len(seats) > 2:
        return _("%(winner)s has the best hand") % names
    units = outcome.get("units")
    if units:
        return _("%(winner)s beats %(loser)s (%(units)s)") % {**names, "units": units}
    return _("%(winner)s beats %(loser)s") % names


def _compare(body: Mapping[str, Any], comparison: Comparison) -> dict[str, Any]:
    return {"kind": "compare", "title": message(comparison["title"]), "at": None,
            "hands": [_hand(body, h) for h in comparison["hands"]],
            "outcomes": [{"text": outcome_text(body, o), "winner": o["winner"]} for o in comparison["outcomes"]]}


def _coins(body: Mapping[str, Any], seats: list[dict[str, Any]]) -> dict[str, Any]:
    """The seats' coins, then the commission once and the house's other lines (the record's
    ``house_lines`` hold the commission too)."""
    lines = {name: amount for name, amount in (body.get("house_lines") or {}).items() if name != "commission"}
    return {"kind": "coins", "title": _("Coins"), "at": body["hand"].get("finished_at"), "seats": seats,
            "commission": body["result"].get("commission", 0), "house_lines": lines}


def replay_steps(body: Mapping[str, Any], seats: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every step of the replay in order, numbered from 1; ``seats`` are the replay's seat rows."""
    comparisons = engine_for(body["game"]).showdown(body)
    steps = [_deal(body, seats), *_actions(body), *(_compare(body, c) for c in comparisons), _coins(body, seats)]
    for number, step in enumerate(steps, 1):
        step["number"] = number
    return steps
