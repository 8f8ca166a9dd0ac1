"""What the platform asks ``thirteen`` about (games/engine/protocol.py): its names, how a stake
level becomes rules, who may be dealt in, and how its hand records are shown.

>>> stake_rules({"unit": 100, "commission_percent": 5, "min_buy_in": 3000, "min_table_money": 500,
...              "mode": "", "seats": 4, "rules": {"arrange_seconds": 45}})
{'unit': 100, 'commission_percent': 5, 'min_buy_in': 3000, 'min_units': 5, 'arrange_seconds': 45}
>>> player_limits({}, 4)
(2, 4)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.engine import defaults
from games.engine.labels import gettext_noop
from games.engine.protocol import StakeTerms
from games.engine.thirteen.rules import MAX_SEATS, MIN_SEATS

name = "thirteen"
label = gettext_noop("Thirteen (十三张)")
modes: Mapping[str, str] = {"": gettext_noop("standard")}
page = "thirteen"
glyph = "13"
blurb = gettext_noop("2–4 players, 13 cards each: set a front of 3, a middle of 5 and a back of 5.")
stake_word = "unit"
presence_matters = False
void_on_outage = False

start_problems = defaults.start_problems
house_lines = defaults.house_lines
carry_for = defaults.carry_kept
set_running = defaults.no_set_running
away_outcome = defaults.away_sits_out
carry_after_removal = defaults.carry_unchanged
set_progress = defaults.no_set_progress
leave_terms = defaults.no_leave_terms

hidden_cards = 13
text_fields: tuple[str, ...] = ("dealer", "unit", "commission")
deal_lines = defaults.no_lines
seat_commissions = defaults.seat_commissions_reported
table_lines = defaults.no_lines
hand_label = defaults.no_hand_label


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
