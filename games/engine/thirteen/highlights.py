"""The showdown's special events as the table page announces them (docs/PROTOCOL.md "The
``state`` frame", ``highlights``; docs/RULES.md section 1 "Scoring", "Naturals", "Fouls").

A pair one hand wins on every row (a fouled hand loses every row) is a sweep, 大获全胜 in the
game's rule text; a hand that does so against every other hand of three or four is a 全垒打; a
declared natural is a 报到. Each event says what it paid: ``units`` and ``coins`` (the pairs'
transfers after table stakes, before commission). A sweep is worth its rows and nothing more
(RULES "Scoring"): it is no 打枪, which the trio pays extra for, and is never doubled.

>>> pairs = [{"seats": [0, 1], "units": 3, "coins": 300, "kind": "rows", "rows": [1, 1, 1]},
...          {"seats": [0, 2], "units": -4, "coins": -400, "kind": "natural", "rows": None},
...          {"seats": [1, 2], "units": -1, "coins": -100, "kind": "rows", "rows": [1, -1, -1]}]
>>> [(h["kind"], h["seat"], h["coins"]) for h in highlights({"pairs": pairs, "natural": [None, None, "six_pairs"]})]
[('sweep', 0, 300), ('natural', 2, 400)]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any


def _shot(pair: Mapping[str, Any]) -> list[int] | None:
    """``[winner, loser]`` when one side took every row (or the other fouled), else None."""
    a, b = pair["seats"]
    rows = pair.get("rows")
    if pair["kind"] == "foul" and pair["units"]:
        return [a, b] if pair["units"] > 0 else [b, a]
    if pair["kind"] != "rows" or not rows:
        return None
    if all(x > 0 for x in rows):
        return [a, b]
    if all(x < 0 for x in rows):
        return [b, a]
    return None


def _paid(pair: Mapping[str, Any], seat: int) -> tuple[int, int]:
    """Units and coins ``seat`` won in ``pair``."""
    sign = 1 if pair["seats"][0] == seat else -1
    return pair["units"] * sign, (pair.get("coins") or 0) * sign


def highlights(result: Mapping[str, Any] | None) -> list[dict[str, Any]]:
    """全垒打, every sweep (``from``: the seat swept), then every 报到 with what it won."""
    if not result:
        return []
    pairs: Sequence[Mapping[str, Any]] = result.get("pairs") or []
    naturals: Sequence[str | None] = result.get("natural") or []
    seats = len(naturals)
    shots = [(shot, pair) for pair in pairs if (shot := _shot(pair))]
    found: list[dict[str, Any]] = []
    for seat in range(seats):
        won = [pair for shot, pair in shots if shot[0] == seat]
        if seats >= 3 and len(won) == seats - 1:
            paid = [_paid(pair, seat) for pair in won]
            found.append({"kind": "home_run", "seat": seat, "units": sum(u for u, _ in paid),
                          "coins": sum(c for _, c in paid)})
    for (winner, loser), pair in shots:
        units, coins = _paid(pair, winner)
        found.append({"kind": "sweep", "seat": winner, "from": loser, "units": units, "coins": coins})
    for seat, natural in enumerate(naturals):
        if natural:
            paid = [_paid(pair, seat) for pair in pairs if seat in pair["seats"] and pair["kind"] == "natural"]
            found.append({"kind": "natural", "seat": seat, "natural": natural,
                          "units": sum(u for u, _ in paid), "coins": sum(c for _, c in paid)})
    return found
