"""The showdown's special events as the table page announces them (docs/PROTOCOL.md "The
``state`` frame", ``highlights``; docs/RULES.md section 3, "Hands", "Modes").

A seat whose three cards make one of the ranking's three 三公 categories and that won with
them is a ``sangong`` event: its hand name id, its multiplier and what it won (``coins``,
before the fee). A house table's seats bet on the table's hands, not their own: no event.

>>> settled = {"hands": ["sangong", "point_3"], "multipliers": [3, 1], "gross": [180, -180]}
>>> highlights(settled, mode="all_compare")
[{'kind': 'sangong', 'seat': 0, 'hand': 'sangong', 'multiplier': 3, 'coins': 180}]
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def highlights(result: Mapping[str, Any] | None, *, mode: str) -> list[dict[str, Any]]:
    """One ``sangong`` event per seat that won with a 三公 hand."""
    if not result or mode == "house":
        return []
    found: list[dict[str, Any]] = []
    for seat, (name, gross) in enumerate(zip(result["hands"], result["gross"], strict=True)):
        if gross > 0 and not name.startswith("point_"):
            found.append({"kind": "sangong", "seat": seat, "hand": name,
                          "multiplier": result["multipliers"][seat], "coins": gross})
    return found
