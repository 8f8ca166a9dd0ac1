"""三公's part of the hand record (docs/HAND_HISTORY.md; docs/RULES.md section 3): cards, bets and
table money per seat, the banker and the bids (a house table's 閒 and 莊 hands), and the
re-deal and re-score ``python -m games verify`` checks it by. Every card is revealed at
showdown, so a player's copy hides nothing.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.engine.cards import cards_str
from games.engine.deck import shuffle
from games.engine.record import compare_hands, differs, pick
from games.engine.samgong.requests import score_request
from games.engine.samgong.table import deal_order


def record_part(state: Mapping[str, Any]) -> dict[str, Any]:
    """Cards, bet multiplier (or house bets) and table money per seat, banker, bids."""
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


def redact(body: dict[str, Any], seat: int) -> list[str]:
    """Nothing is hidden: every hand is revealed at showdown."""
    return []


def _dealt(deck: Sequence[int], rec: Mapping[str, Any]) -> dict[str, Any]:
    """Where each card went (games.engine.samgong.machine): 3 each counter-clockwise
    from seat 0 (``all_compare``, ``pairwise``) or from the banker (``banker_rotate``);
    ``banker_bid``: 2 face up from the kept banker (else seat 0), the 3rd from the banker;
    ``house``: the top six alternately to 閒 and 莊."""
    mode, n = rec["mode"], len(rec["seats"])
    if mode == "house":
        return {"seats": [[] for _ in range(n)], "player": list(deck[0:6:2]), "banker": list(deck[1:6:2])}
    if mode == "banker_bid":
        face_up = rec["banker"] if rec.get("banker_how") == "kept" else 0
        rounds = [(face_up, 2), (rec["banker"], 1)]
    else:
        rounds = [(rec["banker"] if mode == "banker_rotate" else 0, 3)]
    hands: list[list[int]] = [[] for _ in range(n)]
    top = 0
    for start, count in rounds:
        for _ in range(count):
            for seat in deal_order(start, n):
                hands[seat].append(deck[top])
                top += 1
    return {"seats": hands}


def check_deal(rec: dict[str, Any]) -> list[tuple[str, str]]:
    """The seed's deck dealt as the mode deals must give every seat's cards (and a house
    table's 閒 and 莊 hands)."""
    fair = rec["fairness"]
    dealt = _dealt(shuffle(fair["server_seed"], fair["client_seeds"]), rec)
    out = compare_hands(dealt["seats"], rec["seats"])
    for side in ("player", "banker"):
        recorded, seed_deals = rec.get(f"{side}_cards"), cards_str(dealt.get(side, []))
        if side in dealt and recorded != seed_deals:
            out.append((f"{side}_cards", f"recorded {recorded}, the seed deals {seed_deals}"))
    return out


def check_score(rec: dict[str, Any]) -> list[tuple[str, str]]:
    """``score_request`` on the recorded bets must give the gross coins, commission and house;
    the recorded coins are the gross less each seat's commission."""
    req = pick(rec, ("game", "mode", "base", "rules", "banker", "player_cards", "banker_cards"))
    req["seats"] = [pick(s, ("cards", "bet", "bets", "stack")) for s in rec["seats"]]
    out, result = score_request(req), rec["result"]
    net = [g - c for g, c in zip(out["coins"], result.get("commissions") or [0] * len(out["coins"]), strict=True)]
    return differs(("result.gross", result.get("gross"), out["coins"]), ("result.coins", result["coins"], net),
                   ("result.commission", result["commission"], out["commission"]),
                   ("result.house", result["house"], out["house"]))
