"""Platform hooks most games share (games/engine/protocol.py); a game package re-exports the
ones that fit it and writes its own where its rules differ.

>>> house_lines_split({"commission": 5, "house": 5}, rest="banker")
{'commission': 5}
>>> below_table_minimum([900, 1000], 1000)
[{'seat': 0, 'reason': 'below_table_minimum', 'stack': 900, 'minimum': 1000}]
>>> carry_kept({"engine": {"dealer": 1}, "players": [4, 5]}, [5, 6])
{'dealer': 1}
>>> away_sits_out({"engine": {"dealer": 1}, "players": [4, 5]}, 4)
'sit_out'
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


def house_lines(result: Mapping[str, Any]) -> dict[str, int]:
    """Commission, and anything else the house took as the ``banker`` line (a house-banked
    table's result)."""
    return house_lines_split(result, rest="banker")


def below_table_minimum(stacks: Sequence[int], minimum: int) -> list[dict[str, Any]]:
    """Seats holding less than the stake level's minimum table money (docs/RULES.md "Money")."""
    return [
        {"seat": i, "reason": "below_table_minimum", "stack": stack, "minimum": minimum}
        for i, stack in enumerate(stacks)
        if stack < minimum
    ]


def start_problems(
    rules: dict[str, Any], stacks: Sequence[int], carry: dict[str, Any] | None, min_table_money: int
) -> list[dict[str, Any]]:
    """Seats below the stake level's minimum table money may not be dealt in."""
    return below_table_minimum(stacks, min_table_money)


def carry_kept(saved: Mapping[str, Any] | None, players: Sequence[int]) -> dict[str, Any] | None:
    """The engine's carry-over as the table saved it, whoever plays next; None for a fresh start."""
    saved = saved or {}
    if not saved.get("engine"):
        return None
    return dict(saved["engine"])


def no_set_running(saved: Mapping[str, Any] | None, user_id: int) -> bool:
    """Games without sets: nobody is ever bound to the table."""
    return False


#: What happens to the seat of a player who was away (auto-played, not connected) at the end of
#: a hand (docs/RULES.md "Away players"): it stays dealt in (bound to a running set), sits out
#: from the next deal, or stands up with its table money returned to the wallet.
AWAY_STAY, AWAY_SIT_OUT, AWAY_STAND_UP = "stay", "sit_out", "stand_up"
AWAY_OUTCOMES = (AWAY_STAY, AWAY_SIT_OUT, AWAY_STAND_UP)


def away_sits_out(saved: Mapping[str, Any] | None, user_id: int) -> str:
    """Games without sets: an away player sits out from the next deal (docs/RULES.md "Away
    players")."""
    return AWAY_SIT_OUT


def carry_unchanged(saved: dict[str, Any]) -> dict[str, Any]:
    """Removing a seat changes nothing of the carry-over."""
    return saved


def no_lines(rec: Mapping[str, Any]) -> list[str]:
    """No extra lines in the text export."""
    return []


def seat_commissions_reported(rec: Mapping[str, Any]) -> list[int]:
    """The commission each seat paid, as the result reports it per seat (``commissions``).

    >>> seat_commissions_reported({"result": {"coins": [95, -100], "commissions": [5, 0]}})
    [5, 0]
    """
    result = rec["result"]
    return [int(c) for c in result.get("commissions") or [0] * len(result["coins"])]


def no_hand_label(rec: Mapping[str, Any], seat: int) -> str | None:
    """The replay shows no hand name."""
    return None


def no_set_progress(rules: dict[str, Any], saved: Mapping[str, Any] | None,
                    state: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """Games without sets show no set progress."""
    return None


def no_leave_terms(rules: dict[str, Any], saved: Mapping[str, Any] | None,
                   state: Mapping[str, Any] | None, user_id: int) -> dict[str, Any] | None:
    """Games without sets: leaving costs nothing beyond the hand in play."""
    return None
