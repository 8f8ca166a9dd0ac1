"""三人十三支's part of the hand record (docs/HAND_HISTORY.md; docs/RULES.md section 2): the
seats' 17 cards and played rows, the jackpot card and the table head; what a player's copy
hides; the re-deal and re-score ``python -m games verify`` checks it by.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.engine.cards import card_str, cards_str, parse_cards
from games.engine.deck import shuffle
from games.engine.record import ROWS, compare_hands, differs, is_redacted, pick
from games.engine.thirteen_trio.deal import deal
from games.engine.thirteen_trio.money import game_coins, penalty
from games.engine.thirteen_trio.requests import score_request
from games.engine.thirteen_trio.scoring import score_hands

_ROW_SIZES = {"front": 3, "middle": 5, "back": 5}


def record_part(state: Mapping[str, Any]) -> dict[str, Any]:
    """17 cards and the played rows per seat, the jackpot card, the table head."""
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


def redact(body: dict[str, Any], seat: int) -> list[str]:
    """Each opponent's four unused cards stay hidden for good: the opponents' 17-card
    ``cards`` become ``None`` (their played rows stay) and the server seed, which would
    re-deal them, is withheld (its commitment stays)."""
    hidden: list[str] = []
    for i, s in enumerate(body["seats"]):
        if i != seat:
            s["cards"] = None
            hidden.append(f"seats[{i}].cards")
    body["fairness"]["server_seed"] = None
    hidden.append("fairness.server_seed")
    return hidden


def check_deal(rec: dict[str, Any]) -> list[tuple[str, str]]:
    """The seed's deck must turn up the recorded jackpot card, start the deal at the recorded
    seat and give every seat its recorded 17 cards."""
    fair = rec["fairness"]
    jackpot, first, hands = deal(shuffle(fair["server_seed"], fair["client_seeds"]), rec["head"])
    out = []
    if rec.get("jackpot") != card_str(jackpot):
        out.append(("jackpot", f"recorded {rec.get('jackpot')!r}, the seed turns up {card_str(jackpot)}"))
    if rec.get("start_seat") != first:
        out.append(("start_seat", f"recorded {rec.get('start_seat')!r}, the jackpot card starts the deal at {first}"))
    return out + compare_hands(hands, rec["seats"])


def _score_rows(rec: dict[str, Any]) -> tuple[list[int], list[int], int]:
    """Units, coins and commission of the played rows alone (a player's copy lacks the
    opponents' 17 cards)."""
    rows = [{r: parse_cards(s[r], count=n, field=f"seats[{i}].{r}") for r, n in _ROW_SIZES.items()}
            for i, s in enumerate(rec["seats"])]
    units = score_hands(rows, parse_cards([rec["jackpot"]])[0])["units"]
    coins, commission = game_coins(units, base=rec["base"], commission_percent=rec["commission_percent"])
    return units, coins, commission


def _score_request(rec: dict[str, Any]) -> tuple[list[int], list[int], int]:
    """Units, coins and commission by ``score_request`` on the complete record."""
    req = pick(rec, ("game", "jackpot", "base", "commission_percent"))
    req["seats"] = [pick(s, ("cards", "front", "middle", "back")) for s in rec["seats"]]
    out = score_request(req)
    return out["units"], out["coins"], out["commission"]


def check_score(rec: dict[str, Any]) -> list[tuple[str, str]]:
    """The re-scored units, coins, commission and house (the disconnection penalty
    re-derived) must be the recorded ones; a void game moves no coins."""
    result = rec["result"]
    if result.get("void"):
        return differs(("result.coins", result["coins"], [0] * len(result["coins"])))
    units, coins, commission = _score_rows(rec) if is_redacted(rec) else _score_request(rec)
    house = commission
    payer = (result.get("penalty") or {}).get("seat")
    if payer is not None:
        owed = penalty(base=rec["base"], payer=payer, head=rec["head"])
        coins = [c + p for c, p in zip(coins, owed["coins"], strict=True)]
        house += owed["house"]
    return differs(("result.units", result["units"], units), ("result.coins", result["coins"], coins),
                   ("result.commission", result["commission"], commission), ("result.house", result["house"], house))
