"""The showdown of a ``thirteen_trio`` record for the replay (:mod:`games.engine.showdown`): the
rows front to back, each seat's row and its category and who won it between every two unfouled
seats (suits never count), then what paid: the scoops (打槍), a home run and the specials
(docs/RULES.md section 2). Only played rows are read, so a player's copy (opponents' 17 cards
hidden) gives the same comparisons as the complete record.
"""

from __future__ import annotations

from collections.abc import Mapping
from itertools import combinations
from typing import Any

from games.engine.cards import parse_cards
from games.engine.labels import gettext_noop
from games.engine.showdown import (
    FOULED,
    ROW_TITLES,
    ROWS,
    Comparison,
    Outcome,
    Shown,
    row_category,
    seat_rows,
)
from games.engine.thirteen_trio.scoring import row_keys

SPECIAL_TEXTS: dict[str, str] = {
    "front_trips": gettext_noop("{winner}: trips in the front (衝三)"),
    "quads": gettext_noop("{winner}: quads (鐵支)"),
    "straight_flush": gettext_noop("{winner}: straight flush (同花順)"),
    "jackpot": gettext_noop("{winner}: the jackpot card's three partners (彩金)"),
}


def _row(rec: Mapping[str, Any], k: int, played: dict[int, dict[str, list[str]] | None],
         fouled: list[bool]) -> Comparison:
    row = ROWS[k]
    hands: list[Shown] = []
    keys: dict[int, int] = {}
    for i, rows in played.items():
        if rows is None:
            continue
        cards = parse_cards(rows[row])
        shown: Shown = {"seat": i, "cards": rows[row], "name": row_category(cards, suits=False), "args": {}}
        if fouled[i]:
            shown["note"] = FOULED
        else:
            keys[i] = row_keys({r: parse_cards(rows[r]) for r in ROWS})[k]
        hands.append(shown)
    outcomes: list[Outcome] = []
    for a, b in combinations(sorted(keys), 2):
        winner = a if keys[a] > keys[b] else b if keys[b] > keys[a] else None
        outcomes.append({"seats": [a, b], "winner": winner})
    return {"title": ROW_TITLES[row], "hands": hands, "outcomes": outcomes}


def showdown(rec: Mapping[str, Any]) -> list[Comparison]:
    result = rec["result"]
    seats = range(len(rec["seats"]))
    fouled = [bool(f) for f in (result.get("fouled") or [False for _ in seats])]
    played = {i: seat_rows(rec, i) for i in seats}
    out = [_row(rec, k, played, fouled) for k in range(len(ROWS))]
    paid: list[Outcome] = []
    home_run = result.get("home_run")
    for shooter, victim in result.get("shoots") or []:
        text = (gettext_noop("{winner} scoops {loser} (home run: 2)") if shooter == home_run
                else gettext_noop("{winner} scoops {loser}"))
        paid.append({"seats": [shooter, victim], "winner": shooter, "text": text})
    for special in result.get("specials") or []:
        text = SPECIAL_TEXTS.get(special.get("kind", ""), "{winner}: " + str(special.get("name", "")))
        paid.append({"seats": [special["seat"]], "winner": special["seat"], "text": text})
    if not paid:
        paid.append({"seats": [], "winner": None, "text": gettext_noop("No scoops: nothing is paid")})
    out.append({"title": gettext_noop("Scoops and specials"), "hands": [], "outcomes": paid})
    return out
