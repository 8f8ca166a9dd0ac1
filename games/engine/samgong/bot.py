"""A bot's move at a 三公 table, from its own view only (what a person sees): a random bet
multiplier (or a random house bet of two bases), reveal at once, bid for or take the bank
half of the time."""

from __future__ import annotations

import random
from typing import Any


def bot_move(view: dict[str, Any], rng: random.Random) -> dict[str, Any] | None:
    """One of the view's legal actions, or None when the seat has nothing to do."""
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
