"""A bot's move at a ``thirteen`` table, from its own view only (what a person sees)."""

from __future__ import annotations

import random
from typing import Any

from games.engine.cards import cards_str, parse_cards
from games.engine.thirteen.arrange import arrange


def bot_move(view: dict[str, Any], rng: random.Random) -> dict[str, Any] | None:
    """The automatic arrangement (declaring a natural worth at least its best rows) while the
    seat has to submit."""
    me = view["seats"][view["you"]]
    if view["phase"] != "arrange" or me["submitted"]:
        return None
    best = arrange(parse_cards(me["cards"]))
    rows = {row: cards_str(best[row]) for row in ("front", "middle", "back")}
    return {"type": "declare" if best["declare"] else "arrange", **rows}
