"""Per-game glue between a table's stake level and its engine: rule overrides, player counts
and who may be dealt in. Everything else goes through the common engine protocol."""

from __future__ import annotations

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
