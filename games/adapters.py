"""Per-game glue between a table's stake level and its engine: rule overrides, player counts
and who may be dealt in. Everything else goes through the common engine protocol.

This is the live-play services' only door to game-specific behaviour: the services call
these functions and never compare a game's name themselves.
"""

from __future__ import annotations

from collections.abc import Sequence
from types import ModuleType
from typing import Any

from games.engine.registry import engine_for
from tables.models import StakeLevel


def engine(game: str) -> ModuleType:
    return engine_for(game)


def engine_rules(level: StakeLevel) -> dict[str, Any]:
    """The engine rule overrides of a stake level (its ``rules`` field wins)."""
    if level.game == "thirteen":
        base = {
            "unit": level.unit,
            "commission_percent": level.commission_percent,
            "min_buy_in": level.min_buy_in,
            "min_units": max(1, level.min_table_money // level.unit),
        }
    elif level.game == "thirteen_trio":
        base = {"base": level.unit, "commission_percent": level.commission_percent}
    else:
        base = {
            "mode": level.mode,
            "base": level.unit,
            "commission_bps": level.commission_percent * 100,
            "min_stack": level.min_table_money,
        }
    return {**base, **level.rules}


def player_limits(level: StakeLevel) -> tuple[int, int]:
    """How many players a hand needs (at least, at most)."""
    if level.game == "thirteen":
        return 2, 4
    if level.game == "thirteen_trio":
        return 3, 3
    from games.engine.samgong import resolve_rules

    rules = resolve_rules(engine_rules(level))
    return int(rules["min_players"]), min(int(rules["max_players"]), level.seats)


def start_problems(level: StakeLevel, stacks: list[int], carry: dict[str, Any] | None) -> list[dict[str, Any]]:
    """Seats (indices into ``stacks``) that may not be dealt the next hand, and why."""
    if level.game == "thirteen_trio" and len(stacks) == 3:
        from games.engine.thirteen_trio.rules import check_start

        return check_start(engine_rules(level), stacks, carry)
    minimum = level.min_table_money
    return [
        {"seat": i, "reason": "below_table_minimum", "stack": stack, "minimum": minimum}
        for i, stack in enumerate(stacks)
        if stack < minimum
    ]


def house_lines(game: str, result: dict[str, Any]) -> dict[str, int]:
    """The house's side of a settlement: commission, and the rest as its own line — the
    trio's penalty cut, or a house-banked table's result — so ``sum(coins) + sum(lines) == 0``."""
    commission = int(result.get("commission", 0))
    rest = int(result["house"]) - commission
    lines = {"commission": commission, ("penalty" if game == "thirteen_trio" else "banker"): rest}
    return {k: v for k, v in lines.items() if v}


def presence_matters(game: str) -> bool:
    """Whether the game's rules depend on who is connected (the trio's leaver penalty): then
    the engine is told of disconnections and returns, and a leaver mid-set counts as away.
    Elsewhere a missing player is simply auto-played by the timer."""
    return game == "thirteen_trio"


def carry_for(game: str, saved: dict[str, Any] | None, players: Sequence[int]) -> dict[str, Any] | None:
    """The engine's carry-over for the next hand from what the table saved after the last one
    (``{"engine": ..., "players": [user ids]}``), or None for a fresh start (in the trio, a
    change of players starts a new set)."""
    saved = saved or {}
    if not saved.get("engine"):
        return None
    if game == "thirteen_trio" and saved.get("players") != list(players):
        return None
    return dict(saved["engine"])


def set_running(game: str, saved: dict[str, Any] | None, user_id: int) -> bool:
    """Whether ``user_id`` is bound to a set still running at this table (the trio's 6-game
    set): leaving then counts as disconnecting, auto-played to the end of the set."""
    if game != "thirteen_trio":
        return False
    saved = saved or {}
    next_game = int((saved.get("engine") or {}).get("next_game", 1))
    return next_game != 1 and user_id in saved.get("players", [])


def carry_after_removal(game: str, saved: dict[str, Any]) -> dict[str, Any]:
    """What the table keeps after seats were removed for lack of table money: in the trio the
    set ends there, without a leaver penalty; elsewhere the carry-over stands."""
    return {} if game == "thirteen_trio" else saved


def void_on_outage(game: str) -> bool:
    """Whether a hand our own outage interrupted is voided (stakes returned, the engine's
    ``void``) rather than given its lost time back (the trio's rule)."""
    return game == "thirteen_trio"
