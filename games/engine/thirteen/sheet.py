"""十三张's rules panel (docs/RULES.md section 1, "Scoring", "Bonus rows", "Money",
"Disconnected players").

>>> s = rule_sheet({"unit": 100, "commission_percent": 5}, 4)
>>> s["players"], len(s["lines"]) > 3
([2, 4], True)
"""

from __future__ import annotations

import functools
from typing import Any

from games.engine.cards import parse_cards
from games.engine.labels import gettext_noop
from games.engine.poker import rank_row
from games.engine.sheet import line, sheet
from games.engine.thirteen.rules import MAX_SEATS, MIN_SEATS, resolve_rules
from games.engine.thirteen.scoring import BACK, FRONT, MIDDLE, row_value

#: A row of each bonus category (docs/RULES.md "Bonus rows"), valued by the scoring itself.
_EXAMPLES = {
    "ft": (FRONT, "2s 2h 2d"),
    "mf": (MIDDLE, "2s 2h 2d 3s 3h"),
    "mq": (MIDDLE, "2s 2h 2d 2c 3s"),
    "ms": (MIDDLE, "2s 3s 4s 5s 6s"),
    "bq": (BACK, "2s 2h 2d 2c 3s"),
    "bs": (BACK, "2s 3s 4s 5s 6s"),
}


def bonus_values() -> dict[str, int]:
    """What winning a row of each bonus category earns, from :func:`row_value`.

    >>> bonus_values()
    {'ft': 3, 'mf': 2, 'mq': 8, 'ms': 10, 'bq': 4, 'bs': 5}
    """
    return dict(_bonus_values())


@functools.cache
def _bonus_values() -> dict[str, int]:
    """:func:`bonus_values`, scored once (the examples are constants); never handed out."""
    return {
        name: row_value(row, rank_row(parse_cards(cards.split()), suits=True))
        for name, (row, cards) in _EXAMPLES.items()
    }


def rule_sheet(rules: dict[str, Any], seats: int) -> dict[str, Any]:
    """Players, scoring, bonus rows, money and time, from the resolved rule set."""
    r = resolve_rules(rules)
    b = bonus_values()
    lines = [
        line(gettext_noop("{lo}–{hi} players, 13 cards each, set in a front of 3, a middle of 5 and a back of 5; "
                          "back ≥ middle ≥ front, or the hand is a foul."), lo=MIN_SEATS, hi=MAX_SEATS),
        line(gettext_noop("Each row you win against a player takes 1 unit ({x}) from that player."),
             money=("x",), x=r["unit"]),
        line(gettext_noop("Bonus rows pay instead of 1: front trips {ft}; middle full house {mf}, quads {mq}, "
                          "straight flush {ms}; back quads {bq}, straight flush {bs}."),
             ft=b["ft"], mf=b["mf"], mq=b["mq"], ms=b["ms"], bq=b["bq"], bs=b["bs"]),
        line(gettext_noop("A natural wins outright: declare it before submitting rows.")),
        line(gettext_noop("You need {x} of table money to be dealt in."), money=("x",),
             x=r["min_units"] * r["unit"]),
        line(gettext_noop("{s} s to arrange; then the server arranges for you, never a foul."),
             s=r["arrange_seconds"]),
        line(gettext_noop("Commission {p}% of each player's net win in a game."), p=r["commission_percent"]),
    ]
    return sheet(players=(MIN_SEATS, MAX_SEATS), lines=lines)
