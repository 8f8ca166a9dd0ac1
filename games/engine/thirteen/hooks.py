"""Where ``thirteen`` differs from the contract's defaults (games/engine/protocol.py): how a stake
level becomes rules, how many may play, and how its hand records are shown.

>>> stake_rules({"unit": 100, "commission_percent": 5, "min_buy_in": 3000, "min_table_money": 500,
...              "mode": "", "seats": 4, "rules": {"arrange_seconds": 45}})
{'unit': 100, 'commission_percent': 5, 'min_buy_in': 3000, 'min_units': 5, 'arrange_seconds': 45}
>>> player_limits({}, 4)
(2, 4)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.engine.labels import gettext_noop
from games.engine.protocol import StakeTerms
from games.engine.thirteen.rules import MAX_SEATS, MIN_SEATS


def stake_rules(terms: StakeTerms) -> dict[str, Any]:
    """Unit, commission, minimum buy-in, and the minimum table money in units (at least 1)."""
    base = {
        "unit": terms["unit"],
        "commission_percent": terms["commission_percent"],
        "min_buy_in": terms["min_buy_in"],
        "min_units": max(1, terms["min_table_money"] // terms["unit"]),
    }
    return {**base, **terms["rules"]}


def player_limits(rules: dict[str, Any], seats: int) -> tuple[int, int]:
    """docs/RULES.md section 1: 2-4 players."""
    return MIN_SEATS, MAX_SEATS


def text_variant(rec: Mapping[str, Any]) -> str:
    return "CT"


def seat_roles(rec: Mapping[str, Any], seat: int) -> list[str]:
    """The dealer button."""
    return [gettext_noop("dealer")] if rec.get("dealer") == seat else []
