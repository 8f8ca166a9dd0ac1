"""What the platform asks ``samgong`` about (games/engine/protocol.py): its names and five modes,
how a stake level becomes rules, how many players a mode seats, and how its hand records are
shown (docs/RULES.md section 3).

>>> stake_rules({"unit": 100, "commission_percent": 5, "min_buy_in": 2000, "min_table_money": 500,
...              "mode": "all_compare", "seats": 6, "rules": {}})
{'mode': 'all_compare', 'base': 100, 'commission_bps': 500, 'min_stack': 500}
>>> player_limits({"mode": "all_compare"}, 6), player_limits({"mode": "house"}, 6)
((2, 5), (1, 6))
>>> text_variant({"mode": "banker_bid"})
'SG-BB'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.engine import defaults
from games.engine.labels import gettext_noop
from games.engine.protocol import StakeTerms
from games.engine.samgong.rules import resolve_rules

name = "samgong"
label = gettext_noop("Sam Gong (三公)")
#: The five modes (``games.engine.samgong.rules.MODES``), in that order.
modes: Mapping[str, str] = {
    "all_compare": gettext_noop("All compare (通比)"),
    "banker_bid": gettext_noop("Banker bid (抢庄)"),
    "banker_rotate": gettext_noop("Rotating banker (轮庄)"),
    "pairwise": gettext_noop("Pairwise (两两比牌)"),
    "house": gettext_noop("House banker"),
}
page = "samgong"
glyph = "三"
blurb = gettext_noop("Three cards, points count mod 10; three face cards beat any points.")
stake_word = "base"
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

hidden_cards = 3
text_fields: tuple[str, ...] = ("base", "mode", "banker")
deal_lines = defaults.no_lines
seat_commissions = defaults.seat_commissions_reported

#: The text export's variant code of each mode.
VARIANTS = {"all_compare": "SG-AC", "banker_bid": "SG-BB", "banker_rotate": "SG-BR", "pairwise": "SG-PW",
            "house": "SG-H"}


def stake_rules(terms: StakeTerms) -> dict[str, Any]:
    """The mode, the base stake A (the unit), the fee in basis points and the minimum table
    money; the stake level's own rules win."""
    base = {
        "mode": terms["mode"],
        "base": terms["unit"],
        "commission_bps": terms["commission_percent"] * 100,
        "min_stack": terms["min_table_money"],
    }
    return {**base, **terms["rules"]}


def player_limits(rules: dict[str, Any], seats: int) -> tuple[int, int]:
    """The mode's player counts (a room may narrow them), at most the table's seats."""
    resolved = resolve_rules(rules)
    return int(resolved["min_players"]), min(int(resolved["max_players"]), seats)


def text_variant(rec: Mapping[str, Any]) -> str:
    return VARIANTS.get(rec.get("mode", ""), "SG")


def table_lines(rec: Mapping[str, Any]) -> list[str]:
    """A house table's 閒 and 莊 hands, dealt once the bets are in."""
    if not rec.get("player_cards"):
        return []
    return [f"d dt player {''.join(rec['player_cards'])}", f"d dt banker {''.join(rec['banker_cards'])}"]


def seat_roles(rec: Mapping[str, Any], seat: int) -> list[str]:
    """The banker (莊) of the banker modes."""
    return [gettext_noop("banker")] if rec.get("banker") == seat else []


def hand_label(rec: Mapping[str, Any], seat: int) -> str | None:
    """The seat's hand name id in the result (``"sangong"``, ``"point_7"``...)."""
    hands = rec["result"].get("hands")
    return hands[seat] if isinstance(hands, list) and seat < len(hands) else None
