"""The human-readable text form of a hand record, in the spirit of the PHH standard.

PHH (Poker Hand History, phh.readthedocs.io) writes a hand as TOML-like ``key = value``
lines with an ``actions`` list of actor-prefixed action strings (``d`` the dealer, ``p1`` …
``pN`` the players) and lets user-defined fields start with an underscore. We keep that
shape with our own variant codes and action codes (docs/HAND_HISTORY.md): one action per
line, ``# time`` comments marking automatic plays, hidden cards written ``??``. Pure
Python on the record dict; what differs between games (the variant code, the hand size,
extra deal lines, the game's own fields) comes from the game's engine package
(games/engine/protocol.py).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from games.engine.registry import engine_for
from history.exports.summary import seat_penalties

ROWS = ("front", "middle", "back")


def variant(rec: Mapping[str, Any]) -> str:
    """The record's variant code (``CT``, ``CT3``, ``SG-BB``...)."""
    return engine_for(rec["game"]).text_variant(rec)


def _toml(value: Any) -> str:
    """A TOML value: strings in single quotes (JSON escapes when needed), lists, inline tables."""
    if value is None:
        return "''"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return json.dumps(value)
    if isinstance(value, str):
        return f"'{value}'" if "'" not in value and "\n" not in value and "\\" not in value else json.dumps(value)
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{_key(k)} = {_toml(v)}" for k, v in value.items()) + "}"
    return "[" + ", ".join(_toml(v) for v in value) + "]"


def _key(name: str) -> str:
    return name if name.replace("_", "").isalnum() and name.isascii() else json.dumps(name)


def _cards(cards: Sequence[str] | None, hidden: int = 0) -> str:
    return "".join(cards) if cards is not None else "??" * hidden


def _rows(source: Mapping[str, Any]) -> str:
    return "/".join(_cards(source.get(row)) for row in ROWS)


def _deal_lines(rec: Mapping[str, Any]) -> list[str]:
    """The game's own deal lines (the trio's jackpot card), then each seat's hand (``??`` per
    hidden card); a seat dealt no cards (三公's house table) has no line."""
    engine = engine_for(rec["game"])
    lines = list(engine.deal_lines(rec))
    for i, seat in enumerate(rec["seats"]):
        if seat.get("cards") != []:
            lines.append(f"d dh p{i + 1} {_cards(seat.get('cards'), engine.hidden_cards)}")
    return lines


def _house_bets(bets: Mapping[str, int]) -> str:
    return " ".join(f"{k}={v}" for k, v in bets.items()) or "none"


def _bid(rec: Mapping[str, Any], seat: int | None) -> str:
    """搶莊: whether the seat bid for the bank, from the recorded bids."""
    bids = rec.get("bids") or []
    return "bid" if seat is not None and seat < len(bids) and bids[seat] else "pass"


def _move(rec: Mapping[str, Any], seat: int | None, action: Mapping[str, Any]) -> str:
    """The action code of one logged action; automatic plays are looked up in the outcome."""
    kind = action.get("type")
    s = rec["seats"][seat] if seat is not None and 0 <= seat < len(rec["seats"]) else {}
    codes: dict[str, Callable[[], str]] = {
        "arrange": lambda: f"arr {_rows(action)}",
        "declare": lambda: "nat" + (f" {_rows(action)}" if "front" in action else ""),
        "submitted": lambda: ("nat " if s.get("declare") else "arr ") + _rows(s),
        "arranged": lambda: f"arr {_rows(s)}",
        "bid": lambda: "bid", "pass": lambda: "pass",
        "bid_placed": lambda: _bid(rec, seat),
        "accept": lambda: "acc", "decline": lambda: "dec",
        "bet": lambda: f"hb {_house_bets(action['bets'])}" if "bets" in action else f"bet {action.get('multiplier')}",
        "bet_placed": lambda: f"hb {_house_bets(s.get('bets') or {})}" if "bets" in s else f"bet {s.get('bet')}",
        "reveal": lambda: f"sm {_cards(s.get('cards'))}",
        "disconnect": lambda: "dis", "reconnect": lambda: "rec",
    }
    code = codes.get(str(kind))
    return code() if code else f"x {json.dumps(action, sort_keys=True)}"


def _action_lines(rec: Mapping[str, Any]) -> list[str]:
    out = []
    for a in rec.get("actions", []):
        actor = f"p{a['seat'] + 1}" if a.get("seat") is not None else "d"
        note = f" # {a.get('at')}" + (" auto" if a.get("auto") else "")
        out.append(f"{actor} {_move(rec, a.get('seat'), a['action'])}{note}")
    return out


def _extras(rec: Mapping[str, Any]) -> dict[str, Any]:
    result, fair = rec["result"], rec["fairness"]
    engine = engine_for(rec["game"])
    names = engine.text_fields
    extras: dict[str, Any] = {"_game": rec["game"], "_hand_id": rec["hand"].get("id")}
    extras.update({f"_{k}": rec[k] for k in names if rec.get(k) is not None})
    extras.update({
        "_commitment": fair["commitment"], "_server_seed": fair.get("server_seed") or "(withheld)",
        "_client_seeds": fair.get("client_seeds") or [], "_units": result.get("units"), "_coins": result["coins"],
        "_commission": result.get("commission", 0), "_commissions": engine.seat_commissions(rec),
        "_penalties": seat_penalties(rec), "_house": rec.get("house_lines") or {},
        "_ledger_transaction": rec.get("ledger_transaction"), "_chain_seq": rec["chain"]["seq"],
        "_prev_hash": rec["chain"]["prev"],
    })
    if rec.get("hash"):
        extras["_hash"] = rec["hash"]
    if rec.get("view"):
        extras["_view"] = rec["view"]
    return {k: v for k, v in extras.items() if v is not None}


def text_record(rec: Mapping[str, Any]) -> str:
    """One hand in the text form: a TOML table named by the hand id (as PHH's ``.phhs`` files
    hold several hands), so a whole export is one valid TOML document."""
    hand, players = rec["hand"], rec["players"]
    finished = str(hand.get("finished_at") or "")
    stacks = rec.get("stacks") or [0] * len(players)
    fields: dict[str, Any] = {
        "variant": variant(rec), "table": hand.get("table_name") or str(hand.get("table")),
        "hand": hand.get("number"), "seat_count": len(players), "seats": [p["table_seat"] + 1 for p in players],
        "players": [p["name"] for p in players], "starting_stacks": stacks,
        "finishing_stacks": [s + c for s, c in zip(stacks, rec["result"]["coins"], strict=False)],
        "currency": "coin/100", "time_zone": "UTC",
    }
    if len(finished) >= 19:
        fields.update(year=int(finished[:4]), month=int(finished[5:7]), day=int(finished[8:10]), time=finished[11:19])
    lines = [f"# cardtables.hand/1 · {rec['game']} · hand id {hand.get('id')}", f"[{int(hand.get('id') or 0)}]"]
    lines += [f"{k} = {_toml(v)}" for k, v in fields.items()]
    lines.append("actions = [")
    played = _deal_lines(rec) + _action_lines(rec) + engine_for(rec["game"]).table_lines(rec)
    lines += [f"  {_toml(a)}," for a in played]
    lines.append("]")
    lines += [f"{k} = {_toml(v)}" for k, v in _extras(rec).items()]
    return "\n".join(lines) + "\n\n"
