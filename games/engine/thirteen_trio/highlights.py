"""The showdown's special events as the table page announces them (docs/PROTOCOL.md "The
``state`` frame", ``highlights``; docs/RULES.md section 2 "Scoring (比打槍)", "Specials").

Each event names its seat, what it is and what it paid, in 墩 (``units``) and in coins before
the game's commission (``coins``, ``units × base``). A shoot a home run doubled says so.

>>> result = {"void": False, "shoots": [[0, 1], [0, 2], [2, 1]], "home_run": 0,
...           "specials": [{"seat": 2, "kind": "jackpot", "row": "back"}]}
>>> [(h["kind"], h["seat"], h["units"], h["coins"]) for h in highlights(result, base=100)]
[('home_run', 0, 4, 400), ('shoot', 0, 2, 200), ('shoot', 0, 2, 200), ('shoot', 2, 1, 100), ('jackpot', 2, 2, 200)]
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.engine.thirteen_trio.rules import PLAYERS


def highlights(result: Mapping[str, Any] | None, *, base: int) -> list[dict[str, Any]]:
    """全壘打, then every 打槍 (``from``: the seat shot; 2 墩 when the home run doubled it),
    then 彩金: one entry each, for a settled game (none for a void one)."""
    if not result or result.get("void"):
        return []
    home_run = result.get("home_run")
    found: list[dict[str, Any]] = []
    if home_run is not None:
        units = 2 * (PLAYERS - 1)
        found.append({"kind": "home_run", "seat": home_run, "units": units, "coins": units * base})
    for shooter, victim in result.get("shoots") or []:
        units = 2 if shooter == home_run else 1
        found.append({"kind": "shoot", "seat": shooter, "from": victim, "units": units,
                      "coins": units * base, "doubled": units == 2})
    for special in result.get("specials") or []:
        if special["kind"] == "jackpot":
            units = PLAYERS - 1
            found.append({"kind": "jackpot", "seat": special["seat"], "row": special["row"],
                          "units": units, "coins": units * base})
    return found
