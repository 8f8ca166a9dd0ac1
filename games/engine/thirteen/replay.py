"""The showdown of a ``thirteen`` record for the replay (:mod:`games.engine.showdown`): declared
naturals, then the rows front to back, each seat's row and its category and every pair's result
in comparison order, then the pairs a foul decided (docs/RULES.md section 1).

>>> rec = {"seats": [{"cards": [], "front": ["Ah", "Ad", "2c"], "middle": "2s 3s 4s 5s 6s".split(),
...                   "back": "7h 7d 7c 8s 8h".split()},
...                  {"cards": [], "front": ["Kh", "Qd", "9c"], "middle": "4h 4d 5c 6h 9d".split(),
...                   "back": "Ts Td Th 2d 4c".split()}],
...        "result": {"natural": [None, None], "fouled": [False, False],
...                   "pairs": [{"seats": [0, 1], "kind": "rows", "rows": [1, 1, 1], "units": 3}]}}
>>> for c in showdown(rec):
...     print(c["title"], [h["name"] for h in c["hands"]], c["outcomes"][0]["winner"])
Row 1: front ['Pair', 'High card'] 0
Row 2: middle ['Straight flush', 'Pair'] 0
Row 3: back ['Full house', 'Trips'] 0
"""

from __future__ import annotations

from collections.abc import Mapping
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
    pair_outcome,
    row_category,
    seat_rows,
)

#: Each natural (games.engine.thirteen.naturals.NATURALS), as the table pages name it.
NATURAL_LABELS: dict[str, str] = {
    "thirteen_suited": gettext_noop("Thirteen of one suit"),
    "dragon": gettext_noop("Dragon"),
    "twelve_suited": gettext_noop("Twelve of one suit"),
    "trips_five_pairs": gettext_noop("Five pairs and trips"),
    "three_straights": gettext_noop("Three straights"),
    "three_flushes": gettext_noop("Three flushes"),
    "six_pairs": gettext_noop("Six pairs"),
}


def _naturals(rec: Mapping[str, Any], naturals: list[Any], pairs: list[dict[str, Any]]) -> Comparison:
    hands: list[Shown] = [{"seat": i, "cards": list(rec["seats"][i].get("cards") or []), "name": NATURAL_LABELS[n],
                           "args": {}} for i, n in enumerate(naturals) if n]
    outcomes = [pair_outcome(p["seats"], p["units"]) for p in pairs if p["kind"] == "natural"]
    return {"title": gettext_noop("Naturals"), "hands": hands, "outcomes": outcomes}


def _foul(pair: Mapping[str, Any]) -> Outcome:
    outcome = pair_outcome(pair["seats"], pair["units"])
    outcome["text"] = (gettext_noop("{loser} fouled and pays {winner} for every row") if outcome["winner"] is not None
                       else gettext_noop("Both fouled: nothing changes hands"))
    return outcome


def showdown(rec: Mapping[str, Any]) -> list[Comparison]:
    result = rec["result"]
    seats = range(len(rec["seats"]))
    naturals = list(result.get("natural") or [None for _ in seats])
    fouled = list(result.get("fouled") or [False for _ in seats])
    pairs = list(result.get("pairs") or [])
    out: list[Comparison] = [_naturals(rec, naturals, pairs)] if any(naturals) else []
    rows = {i: seat_rows(rec, i) for i in seats if not naturals[i]}
    for k, row in enumerate(ROWS):
        hands: list[Shown] = []
        for i, played in rows.items():
            if played is None:
                continue
            shown: Shown = {"seat": i, "cards": played[row], "args": {},
                            "name": row_category(parse_cards(played[row]), suits=True)}
            if fouled[i]:
                shown["note"] = FOULED
            hands.append(shown)
        outcomes = [pair_outcome(p["seats"], p["rows"][k]) for p in pairs if p["kind"] == "rows"]
        out.append({"title": ROW_TITLES[row], "hands": hands, "outcomes": outcomes})
    fouls = [_foul(p) for p in pairs if p["kind"] == "foul"]
    if fouls:
        out.append({"title": gettext_noop("Fouls"), "hands": [], "outcomes": fouls})
    return out
