"""A bot's move at a ``thirteen_trio`` table, from its own view only (what a person sees)."""

from __future__ import annotations

import random
from typing import Any

from games.engine.cards import cards_str, parse_card, parse_cards
from games.engine.thirteen_trio.arrange import arrange
from games.engine.thirteen_trio.rules import ROWS


def bot_move(view: dict[str, Any], rng: random.Random) -> dict[str, Any] | None:
    """The automatic arrangement while the seat, connected, still has to submit its rows."""
    me = view["seats"][view["you"]]
    if view["phase"] != "arrange" or me["arranged"] or not me["connected"]:
        return None
    best = arrange(parse_cards(me["cards"]), parse_card(view["jackpot"]))
    return {"type": "arrange", **{row: cards_str(best[row]) for row in ROWS}}
