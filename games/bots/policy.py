"""What a bot plays, decided from its own state frame only (exactly what a person sees)."""

from __future__ import annotations

import random
from typing import Any

from games.engine.cards import cards_str, parse_cards


def _rows(best: dict[str, Any]) -> dict[str, list[str]]:
    return {row: cards_str(best[row]) for row in ("front", "middle", "back")}


def _thirteen(view: dict[str, Any]) -> dict[str, Any] | None:
    from games.engine.thirteen.arrange import arrange

    me = view["seats"][view["you"]]
    if view["phase"] != "arrange" or me["submitted"]:
        return None
    best = arrange(parse_cards(me["cards"]))
    return {"type": "declare" if best["declare"] else "arrange", **_rows(best)}


def _trio(view: dict[str, Any]) -> dict[str, Any] | None:
    from games.engine.thirteen_trio.arrange import arrange

    me = view["seats"][view["you"]]
    if view["phase"] != "arrange" or me["arranged"] or not me["connected"]:
        return None
    best = arrange(parse_cards(me["cards"]), parse_cards([view["jackpot"]])[0])
    return {"type": "arrange", **_rows(best)}


def _samgong(view: dict[str, Any], rng: random.Random) -> dict[str, Any] | None:
    legal = view.get("legal_actions") or []
    if not legal:
        return None
    kinds = {a["type"] for a in legal}
    if "bet" in kinds and view["mode"] == "house":
        stake = 2 * view["base"]
        return {"type": "bet", "bets": {rng.choice(["player", "banker"]): stake}}
    if "bet" in kinds:
        return {"type": "bet", "multiplier": rng.choice(view["bet_multipliers"])}
    for preferred in ("reveal", "bid", "accept"):
        if preferred in kinds and (preferred == "reveal" or rng.random() < 0.5):
            return {"type": preferred}
    return {"type": next(k for k in ("pass", "decline", "reveal") if k in kinds)}


def choose(frame: dict[str, Any], rng: random.Random | None = None) -> dict[str, Any] | None:
    """The bot's move for this frame, or None when it has nothing to do."""
    hand = frame.get("hand")
    if not hand or hand["status"] != "active" or hand["seat"] is None:
        return None
    view = hand["view"]
    if frame["game"] == "thirteen":
        return _thirteen(view)
    if frame["game"] == "thirteen_trio":
        return _trio(view)
    return _samgong(view, rng or random.Random())
