"""What a bot plays, decided from its own state frame only (exactly what a person sees); the
game's engine package chooses the move (``bot_move``, games/engine/protocol.py)."""

from __future__ import annotations

import random
from typing import Any

from games.engine.registry import engine_for


def choose(frame: dict[str, Any], rng: random.Random | None = None) -> dict[str, Any] | None:
    """The bot's move for this frame, or None when it has nothing to do."""
    hand = frame.get("hand")
    if not hand or hand["status"] != "active" or hand["seat"] is None:
        return None
    return engine_for(frame["game"]).bot_move(hand["view"], rng or random.Random())


def between_sets(hand: dict[str, Any] | None) -> bool:
    """Whether leaving now cuts nothing short: no hand in play and, where the game plays sets
    of games (its view shows ``game_in_set`` of ``set_size``), the set is over."""
    if hand is None:
        return True
    if hand["status"] == "active":
        return False
    view = hand.get("view") or {}
    return "set_size" not in view or int(view.get("game_in_set", 0)) >= int(view["set_size"])
