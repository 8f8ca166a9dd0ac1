"""The hand record (docs/HAND_HISTORY.md, format ``cardtables.hand/1``) built from a settled
hand's engine state, and a player's copy of it.

Pure Python on plain dicts — no Django — so the engine-side verifier's tests build records
with it too. A record is one JSON object that is at the same time a ``python -m games score``
request of its game (``game``, ``seats`` and the game's money fields at the top level) and
the complete history: table, stake level, players, seed commitment and revealed seed, the
deal, every action with its time and whether it was automatic, the result, the house lines,
the ledger transaction and the link to the previous record of the same table.
"""

from __future__ import annotations

import copy
import hashlib
import json
from collections.abc import Mapping, Sequence
from typing import Any

from games.engine.cards import card_str, cards_str
from games.engine.verify import FORMAT, GENESIS, UNHASHED, canonical_json, rule_set_id

__all__ = ["FORMAT", "GENESIS", "player_copy", "record_body", "seal"]

ROWS = ("front", "middle", "back")


def _thirteen(state: Mapping[str, Any]) -> dict[str, Any]:
    """十三张: the score request's seats (cards, rows, declare), dealer, unit, stacks, commission."""
    seats = []
    for s in state["seats"]:
        sub = s.get("submission") or {}
        seat: dict[str, Any] = {"cards": list(s["cards"]), "declare": bool(sub.get("declare", False))}
        seat.update({row: list(sub[row]) for row in ROWS if sub.get(row)})
        seats.append(seat)
    rules = state["rules"]
    return {
        "seats": seats, "dealer": state["dealer"], "unit": rules["unit"],
        "stacks": [s["stack"] for s in state["seats"]], "commission": rules["commission_percent"],
    }


def _trio(state: Mapping[str, Any]) -> dict[str, Any]:
    """三人十三支: 17 cards and the played rows per seat, the jackpot card, the table head."""
    seats = []
    for s in state["seats"]:
        seat: dict[str, Any] = {"cards": cards_str(s["cards"])}
        if s.get("rows"):
            seat.update({row: cards_str(s["rows"][row]) for row in ROWS})
        seats.append(seat)
    rules = state["rules"]
    return {
        "seats": seats, "jackpot": card_str(state["jackpot"]), "base": rules["base"],
        "commission_percent": rules["commission_percent"], "head": state["head"], "start_seat": state["start_seat"],
        "game_in_set": state["game_in_set"], "stacks": [s["stack"] for s in state["seats"]],
        "connected": [bool(s["connected"]) for s in state["seats"]], "first_disconnect": state["first_disconnect"],
    }


def _samgong(state: Mapping[str, Any]) -> dict[str, Any]:
    """三公: cards, bet multiplier (or house bets) and table money per seat, banker, bids."""
    house = state["mode"] == "house"
    seats = []
    for i, s in enumerate(state["seats"]):
        seat: dict[str, Any] = {"cards": cards_str(state["cards"][i]), "stack": s["stack"]}
        if house:
            seat["bets"] = dict(state["house_bets"][i] or {})
        elif state["bets"][i] is not None:
            seat["bet"] = state["bets"][i]
        seats.append(seat)
    out: dict[str, Any] = {
        "seats": seats, "mode": state["mode"], "base": state["rules"]["base"], "banker": state["banker"],
        "banker_how": state["banker_how"], "bids": list(state["bids"]), "stacks": [s["stack"] for s in state["seats"]],
    }
    if house and state.get("table_cards"):
        out.update(player_cards=cards_str(state["table_cards"]["player"]),
                   banker_cards=cards_str(state["table_cards"]["banker"]))
    return out


GAME_PARTS = {"thirteen": _thirteen, "thirteen_trio": _trio, "samgong": _samgong}


def record_body(
    *, game: str, hand: Mapping[str, Any], players: Sequence[Mapping[str, Any]], fairness: Mapping[str, Any],
    state: Mapping[str, Any], result: Mapping[str, Any], actions: Sequence[Mapping[str, Any]],
    house_lines: Mapping[str, int], ledger_transaction: int | None, chain: Mapping[str, Any],
) -> dict[str, Any]:
    """The record of one settled hand (every value JSON: ints, strings, lists, dicts).

    ``hand``: id, table, table_name, number, stake_level, stake_level_name, started_at,
    finished_at. ``players``: per hand seat ``{"seat", "table_seat", "user", "name"}``.
    ``fairness``: commitment, server_seed, client_seeds. ``chain``: ``{"seq", "prev"}``.
    """
    body: dict[str, Any] = {
        "format": FORMAT,
        "game": game,
        **GAME_PARTS[game](state),
        "hand": dict(hand),
        "players": [dict(p) for p in players],
        "fairness": {"commitment": fairness["commitment"], "server_seed": fairness["server_seed"],
                     "client_seeds": list(fairness.get("client_seeds") or [])},
        "rules": state["rules"],
        "rule_set": rule_set_id(game, state["rules"]),
        "actions": [dict(a) for a in actions],
        "result": result,
        "house_lines": dict(house_lines),
        "ledger_transaction": ledger_transaction,
        "chain": {"seq": chain["seq"], "prev": chain.get("prev") or GENESIS},
    }
    return json_round_trip(body)  # a fresh copy: nothing of the inputs is shared or mutated


def json_round_trip(value: Any) -> Any:
    """The value as JSON gives it back (tuples become lists): what a reader of the export sees."""
    return json.loads(canonical_json(value))


def seal(body: Mapping[str, Any]) -> tuple[str, str]:
    """``(canonical JSON text, SHA-256 hex)`` of a record body: what is stored and chained
    (the same digest as :func:`games.engine.verify.record_hash`, hashing the text once)."""
    if any(key in body for key in UNHASHED):
        raise ValueError(f"a record body to seal has no {' or '.join(UNHASHED)}")
    text = canonical_json(body)
    return text, hashlib.sha256(text.encode("utf-8")).hexdigest()


def player_copy(body: Mapping[str, Any], seat: int) -> dict[str, Any]:
    """The record as the player at hand seat ``seat`` may see it (RULES.md section 2, ``view``).

    In the trio each opponent's four unused cards stay hidden for good: the opponents'
    17-card ``cards`` become ``None`` (their played rows stay) and the server seed, which
    would re-deal them, is withheld (its commitment stays). Everything else is revealed at
    showdown in every game, so other games' copies are the full record. ``view`` names the
    seat and the hidden fields; it is not part of the hash.
    """
    out = copy.deepcopy(dict(body))
    hidden: list[str] = []
    if out["game"] == "thirteen_trio":
        for i, s in enumerate(out["seats"]):
            if i != seat:
                s["cards"] = None
                hidden.append(f"seats[{i}].cards")
        out["fairness"]["server_seed"] = None
        hidden.append("fairness.server_seed")
    out["view"] = {"seat": seat, "redacted": hidden}
    return out
