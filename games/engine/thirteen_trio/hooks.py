"""Where ``thirteen_trio`` differs from the contract's defaults (games/engine/protocol.py): how a
stake level becomes rules, the set minimums, the leaver rules that make presence matter, the
set a player is bound to, and how its hand records are shown (docs/RULES.md section 2).

>>> stake_rules({"unit": 10_000, "commission_percent": 5, "min_buy_in": 300_000, "min_table_money": 110_000,
...              "mode": "", "seats": 3, "rules": {}})
{'base': 10000, 'commission_percent': 5}
>>> house_lines({"commission": 50, "house": 10_050})
{'commission': 50, 'penalty': 10000}
>>> away_outcome({"engine": {"next_game": 3}, "players": [7, 8, 9]}, 8)
'stay'
>>> away_outcome({"engine": {"next_game": 1}, "players": [7, 8, 9]}, 8)
'stand_up'
>>> set_running({"engine": {"next_game": 3}, "players": [7, 8, 9]}, 8)
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.engine import defaults
from games.engine.labels import gettext_noop
from games.engine.protocol import StakeTerms
from games.engine.thirteen_trio.money import commission
from games.engine.thirteen_trio.rules import PLAYERS, check_start


def stake_rules(terms: StakeTerms) -> dict[str, Any]:
    """One 墩 (the base) is the stake level's unit; its own rules win."""
    return {"base": terms["unit"], "commission_percent": terms["commission_percent"], **terms["rules"]}


def player_limits(rules: dict[str, Any], seats: int) -> tuple[int, int]:
    """Exactly three players."""
    return PLAYERS, PLAYERS


def start_problems(
    rules: dict[str, Any], stacks: Sequence[int], carry: dict[str, Any] | None, min_table_money: int
) -> list[dict[str, Any]]:
    """Three players: the set or game minimum (:func:`check_start`); otherwise the stake
    level's minimum table money."""
    if len(stacks) != PLAYERS:
        return defaults.below_table_minimum(stacks, min_table_money)
    return check_start(rules, stacks, carry)


def house_lines(result: Mapping[str, Any]) -> dict[str, int]:
    """Commission, and the house's cut of a leaver penalty as the ``penalty`` line."""
    return defaults.house_lines_split(result, rest="penalty")


def carry_for(saved: Mapping[str, Any] | None, players: Sequence[int]) -> dict[str, Any] | None:
    """The saved carry-over, unless the players changed: a new set starts then."""
    saved = saved or {}
    if not saved.get("engine") or saved.get("players") != list(players):
        return None
    return dict(saved["engine"])


def set_running(saved: Mapping[str, Any] | None, user_id: int) -> bool:
    """Whether ``user_id`` plays in a 6-game set that has begun: leaving then counts as
    disconnecting, auto-played to the end of the set."""
    saved = saved or {}
    next_game = int((saved.get("engine") or {}).get("next_game", 1))
    return next_game != 1 and user_id in saved.get("players", [])


def away_outcome(saved: Mapping[str, Any] | None, user_id: int) -> str:
    """An away player (auto-played, not connected at the end of a game) stays in a running set,
    played by the server to its end as a disconnected seat is; once the set is over the seat
    stands up, since a table of exactly three players cannot deal while one sits out
    (docs/RULES.md "Away players")."""
    return defaults.AWAY_STAY if set_running(saved, user_id) else defaults.AWAY_STAND_UP


def carry_after_removal(saved: dict[str, Any]) -> dict[str, Any]:
    """A player removed for lack of table money ends the set there, without a leaver penalty."""
    return {}


def text_variant(rec: Mapping[str, Any]) -> str:
    return "CT3"


def seat_commissions(rec: Mapping[str, Any]) -> list[int]:
    """Each seat's commission: the percentage of its net win of the game, rounded down, 0 on a
    loss (docs/RULES.md section 2 "Money"); the result reports only the total. No commission is
    taken on a leaver penalty, and a void game has none.

    >>> seat_commissions({"base": 1000, "commission_percent": 5, "result": {"units": [-2, 4, -2]}})
    [0, 200, 0]
    """
    base, percent = rec["base"], rec["commission_percent"]
    return [commission(units * base, percent) for units in rec["result"]["units"]]


def deal_lines(rec: Mapping[str, Any]) -> list[str]:
    """The jackpot card (彩金), turned up before the deal."""
    return [f"d db {rec['jackpot']}"]


def seat_roles(rec: Mapping[str, Any], seat: int) -> list[str]:
    """The table head (頭)."""
    return [gettext_noop("table head")] if rec.get("head") == seat else []
