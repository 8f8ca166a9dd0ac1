"""The rules behind the hooks most games share (games/engine/protocol.py :class:`GameEngine`
uses them as its defaults; a game whose rules differ calls them with its own arguments).

>>> house_lines_split({"commission": 5, "house": 5}, rest="banker")
{'commission': 5}
>>> below_table_minimum([900, 1000], 1000)
[{'seat': 0, 'reason': 'below_table_minimum', 'stack': 900, 'minimum': 1000}]
>>> carry_kept({"engine": {"dealer": 1}, "players": [4, 5]}, [5, 6])
{'dealer': 1}
>>> unit_and_commission({"unit": 100, "commission_percent": 5, "min_buy_in": 3000, "min_table_money": 500,
...                      "mode": "", "seats": 4, "rules": {"deal_seconds": 9}})
{'unit': 100, 'commission_percent': 5, 'deal_seconds': 9}
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any


def house_lines_split(result: Mapping[str, Any], *, rest: str) -> dict[str, int]:
    """The settlement's ``house`` as the ``commission`` line and everything else as ``rest``;
    zero lines left out, so ``sum(coins) + sum(lines) == 0``."""
    commission = int(result.get("commission", 0))
    lines = {"commission": commission, rest: int(result["house"]) - commission}
    return {name: amount for name, amount in lines.items() if amount}


def below_table_minimum(stacks: Sequence[int], minimum: int) -> list[dict[str, Any]]:
    """Seats holding less than the stake level's minimum table money (docs/RULES.md "Money")."""
    return [
        {"seat": i, "reason": "below_table_minimum", "stack": stack, "minimum": minimum}
        for i, stack in enumerate(stacks)
        if stack < minimum
    ]


def carry_kept(saved: Mapping[str, Any] | None, players: Sequence[int]) -> dict[str, Any] | None:
    """The engine's carry-over as the table saved it, whoever plays next; None for a fresh start."""
    saved = saved or {}
    if not saved.get("engine"):
        return None
    return dict(saved["engine"])


def unit_and_commission(terms: Mapping[str, Any]) -> dict[str, Any]:
    """A stake level's unit and commission as rule overrides; the level's own rules win."""
    return {"unit": terms["unit"], "commission_percent": terms["commission_percent"], **terms["rules"]}


#: What happens to the seat of a player who was away (auto-played, not connected) at the end of
#: a hand (docs/RULES.md "Away players"): it stays dealt in (bound to a running set), sits out
#: from the next deal, or stands up with its table money returned to the wallet.
AWAY_STAY, AWAY_SIT_OUT, AWAY_STAND_UP = "stay", "sit_out", "stand_up"
AWAY_OUTCOMES = (AWAY_STAY, AWAY_SIT_OUT, AWAY_STAND_UP)


def seat_commissions_reported(rec: Mapping[str, Any]) -> list[int]:
    """The commission each seat paid, as the result reports it per seat (``commissions``).

    >>> seat_commissions_reported({"result": {"coins": [95, -100], "commissions": [5, 0]}})
    [5, 0]
    """
    result = rec["result"]
    return [int(c) for c in result.get("commissions") or [0] * len(result["coins"])]
