"""Rule settings, seats and table minimums of 三人十三支 (docs/RULES.md section 2).

Money is ``int`` minor units. ``base`` is one 墩 (the 底); the seed's bases of 100, 200,
300, 500 and 1000 coins are :data:`BASES` in minor units (a coin is 100 minor units).

>>> rules = resolve_rules({"base": 100})
>>> set_minimum(rules), game_minimum(rules)
(3000, 1100)
>>> check_start(rules, [3000, 2999, 5000], None)
[{'seat': 1, 'reason': 'below_set_minimum', 'stack': 2999, 'minimum': 3000}]
>>> check_start(rules, [1100, 1099, 5000], {"next_game": 2})
[{'seat': 1, 'reason': 'below_game_minimum', 'stack': 1099, 'minimum': 1100}]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.engine.errors import EngineError

GAME = "thirteen_trio"
PLAYERS = 3
HAND_SIZE = 17
ROW_SIZES = {"front": 3, "middle": 5, "back": 5}
ROWS = ("front", "middle", "back")

#: The seed's bases 100 / 200 / 300 / 500 / 1000 coins, in minor units.
BASES: tuple[int, ...] = (10_000, 20_000, 30_000, 50_000, 100_000)

DEFAULT_RULES: dict[str, int] = {
    "base": BASES[0],  # 1 墩, minor units
    "commission_percent": 5,  # of each player's net win per game, rounded down
    "arrange_seconds": 30,  # time to submit the rows
    "extend_seconds": 30,  # the one automatic extension
    "set_size": 6,  # games in a set (一將)
    "set_minimum_bases": 30,  # 成局點數: a table forms / a set starts at 30 × base
    "game_minimum_bases": 11,  # shown before every game: the most one game can cost
}

#: Seat names counted counter-clockwise from the table head: 頭, 對, 尾.
ROLE_NAMES: tuple[str, str, str] = ("頭", "對", "尾")


def resolve_rules(rules: Mapping[str, Any] | None) -> dict[str, int]:
    """The default rule set overridden by ``rules``; every value a positive ``int``."""
    merged = dict(DEFAULT_RULES)
    for name, value in (rules or {}).items():
        if name not in DEFAULT_RULES:
            raise EngineError(f"rules.{name}: unknown rule for {GAME}")
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise EngineError(f"rules.{name}: expected a non-negative integer, got {value!r}")
        merged[name] = value
    for name in ("base", "set_size", "arrange_seconds"):
        if merged[name] <= 0:
            raise EngineError(f"rules.{name}: must be positive")
    if merged["commission_percent"] > 100:
        raise EngineError("rules.commission_percent: at most 100")
    return merged


def ccw(seat: int, steps: int = 1) -> int:
    """The seat ``steps`` places counter-clockwise (the dealing direction): ``seat − steps mod 3``."""
    return (seat - steps) % PLAYERS


def role(head: int, seat: int) -> str:
    """頭 / 對 / 尾 of ``seat`` at a table whose head is ``head`` (docs/RULES.md "Table head and deal").

    >>> [role(0, s) for s in range(3)]
    ['頭', '尾', '對']
    """
    return ROLE_NAMES[(head - seat) % PLAYERS]


def game_minimum(rules: Mapping[str, Any] | None) -> int:
    """What every player must hold before each game: 11 × base (docs/RULES.md section 2 "Money")."""
    r = resolve_rules(rules)
    return r["game_minimum_bases"] * r["base"]


def set_minimum(rules: Mapping[str, Any] | None) -> int:
    """成局點數: what all three must hold to form a table or start a set, 30 × base."""
    r = resolve_rules(rules)
    return r["set_minimum_bases"] * r["base"]


def starts_set(carry: Mapping[str, Any] | None) -> bool:
    """Whether the next game is the first of a set (a new table, or the last set ended)."""
    return carry is None or int(carry.get("next_game", 1)) == 1


def check_start(
    rules: Mapping[str, Any] | None, stacks: Sequence[int], carry: Mapping[str, Any] | None
) -> list[dict[str, Any]]:
    """Seats that cannot be dealt the next game, and why (docs/RULES.md section 2 "Money").

    At the start of a set every player needs :func:`set_minimum` (``below_set_minimum``:
    the set does not start); before any other game :func:`game_minimum`
    (``below_game_minimum``: the player is removed before the deal and the set ends
    there, with no leaver penalty — pass the next carry through :func:`end_set`).
    """
    if len(stacks) != PLAYERS:
        raise EngineError(f"stacks: expected {PLAYERS} seats, got {len(stacks)}")
    if starts_set(carry):
        reason, minimum = "below_set_minimum", set_minimum(rules)
    else:
        reason, minimum = "below_game_minimum", game_minimum(rules)
    return [
        {"seat": seat, "reason": reason, "stack": stack, "minimum": minimum}
        for seat, stack in enumerate(stacks)
        if stack < minimum
    ]


def end_set(carry: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """The carry with the current set ended (a player was removed): the next game starts a set."""
    if carry is None:
        return None
    return {**carry, "next_game": 1}
