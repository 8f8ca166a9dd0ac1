"""Where ``samgong`` differs from the contract's defaults (games/engine/protocol.py): how a stake
level becomes rules, how many players a mode seats, and how its hand records are
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

from collections.abc import Mapping, Sequence
from typing import Any

from games.engine import flows
from games.engine.labels import gettext_noop
from games.engine.protocol import StakeTerms
from games.engine.samgong.rules import BANKER_MODES, resolve_rules

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


def pair_flows(rec: Mapping[str, Any], coins: Sequence[int]) -> list[tuple[int, int, int]]:
    """Coins between seats (docs/INTEGRITY.md): at a house table players never pay one another;
    in the banker modes each player's result moved between them and the banker only; in 通比
    and 两两比牌 the seats' coins netted."""
    if rec["mode"] == "house":
        return []
    if rec["mode"] in BANKER_MODES and rec.get("banker") is not None:
        return flows.banker_flows(coins, banker=int(rec["banker"]))
    return flows.netted_flows(coins)
