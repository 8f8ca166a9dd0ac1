"""The door from live play to a table's game: a stake level's rule overrides, player counts,
who may be dealt in, the house's lines, presence, carry-overs, sets and outage voids.

Each question is answered by the game's plug-in (games/engine/protocol.py ``GameEngine``, found
through :mod:`games.engine.registry`); this module only turns a :class:`StakeLevel` into the
plain terms the engine reads. The live-play services call these functions and never compare
a game's name themselves.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from games.engine.protocol import GameEngine, StakeTerms
from games.engine.registry import engine_for
from tables.models import StakeLevel


def engine(game: str) -> GameEngine:
    """The engine of ``game``."""
    return engine_for(game)


def stake_terms(level: StakeLevel) -> StakeTerms:
    """A stake level's fields as the plain mapping the engines read."""
    return {
        "unit": level.unit,
        "commission_percent": level.commission_percent,
        "min_buy_in": level.min_buy_in,
        "min_table_money": level.min_table_money,
        "mode": level.mode,
        "seats": level.seats,
        "rules": dict(level.rules or {}),
    }


def engine_rules(level: StakeLevel) -> dict[str, Any]:
    """The engine rule overrides of a stake level (its ``rules`` field wins). Kept per game and
    terms (the engine's answer depends on nothing else): one state frame asks for them several
    times (what the table waits for, the set, each seat's leave terms). Read-only for callers."""
    terms = stake_terms(level)
    key = (level.game, repr(sorted(terms.items())))
    rules = _RULES.get(key)
    if rules is None:
        if len(_RULES) >= RULES_KEPT:
            _RULES.clear()  # stake levels are few: only edits of their terms ever fill it
        rules = _RULES[key] = engine_for(level.game).stake_rules(terms)
    return rules


#: How many games' and terms' rules :func:`engine_rules` keeps.
RULES_KEPT = 256
_RULES: dict[tuple[str, str], dict[str, Any]] = {}


def player_limits(level: StakeLevel) -> tuple[int, int]:
    """How many players a hand needs (at least, at most)."""
    return engine_for(level.game).player_limits(engine_rules(level), level.seats)


def start_problems(level: StakeLevel, stacks: list[int], carry: dict[str, Any] | None) -> list[dict[str, Any]]:
    """Seats (indices into ``stacks``) that may not be dealt the next hand, and why."""
    return engine_for(level.game).start_problems(engine_rules(level), stacks, carry, level.min_table_money)


def house_lines(game: str, result: dict[str, Any]) -> dict[str, int]:
    """The house's side of a settlement: commission, and the rest as its own line — the
    trio's penalty cut, or a house-banked table's result — so ``sum(coins) + sum(lines) == 0``."""
    return engine_for(game).house_lines(result)


def presence_matters(game: str) -> bool:
    """Whether the game's rules depend on who is connected (the trio's leaver penalty): then
    the engine is told of disconnections and returns, and a leaver mid-set counts as away.
    Elsewhere a missing player is simply auto-played by the timer."""
    return engine_for(game).presence_matters


def carry_for(game: str, saved: dict[str, Any] | None, players: Sequence[int]) -> dict[str, Any] | None:
    """The engine's carry-over for the next hand from what the table saved after the last one
    (``{"engine": ..., "players": [user ids]}``), or None for a fresh start (in the trio, a
    change of players starts a new set)."""
    return engine_for(game).carry_for(saved, players)


def set_running(game: str, saved: dict[str, Any] | None, user_id: int) -> bool:
    """Whether ``user_id`` is bound to a set still running at this table (the trio's 6-game
    set): leaving then counts as disconnecting, auto-played to the end of the set."""
    return engine_for(game).set_running(saved, user_id)


def away_outcome(game: str, saved: dict[str, Any] | None, user_id: int) -> str:
    """What becomes of the seat of a player away at the end of a hand: stays (the trio's running
    set), sits out, or stands up (docs/RULES.md "Away players")."""
    return engine_for(game).away_outcome(saved, user_id)


def carry_after_removal(game: str, saved: dict[str, Any]) -> dict[str, Any]:
    """What the table keeps after seats were removed for lack of table money: in the trio the
    set ends there, without a leaver penalty; elsewhere the carry-over stands."""
    return engine_for(game).carry_after_removal(saved)


def void_on_outage(game: str) -> bool:
    """Whether a hand our own outage interrupted is voided (stakes returned, the engine's
    ``void``) rather than given its lost time back (the trio's rule)."""
    return engine_for(game).void_on_outage


def rule_sheet(level: StakeLevel) -> dict[str, Any]:
    """The rules panel of a stake level's tables (games/engine/sheet.py): players, message-id
    lines with their values, and the game's own figures (a house table's payouts)."""
    return engine_for(level.game).rule_sheet(engine_rules(level), level.seats)


def set_progress(
    level: StakeLevel, saved: dict[str, Any] | None, state: dict[str, Any] | None
) -> dict[str, Any] | None:
    """Where a table is in its set (the trio's 6 games), or None for games without sets."""
    return engine_for(level.game).set_progress(engine_rules(level), saved, state)


def leave_terms(
    level: StakeLevel, saved: dict[str, Any] | None, state: dict[str, Any] | None, user_id: int
) -> dict[str, Any] | None:
    """What leaving now binds ``user_id`` to beyond the hand in play (the trio's set: games
    left to be auto-played, the penalty in minor units), or None."""
    return engine_for(level.game).leave_terms(engine_rules(level), saved, state, user_id)
