"""What one game hands the next at a table: head, set counter, disconnected seats.

docs/RULES.md section 2: the table head is seat 0 in a table's first game, then the strongest
unfouled back of the previous game; a set (一將) is 6 games; a seat that stays
disconnected into later games is not charged again. The carry names players, so a
change of players (a removal, a new third player) starts a new set.

>>> carry = {"game": "thirteen_trio", "players": ["a", "b", "c"], "head": 2,
...          "next_game": 4, "disconnected": ["c"]}
>>> table_state(carry, ["a", "b", "c"])
(2, 4, ['c'])
>>> table_state(carry, ["c", "a", "d"])          # c keeps the head; new players: a new set
(0, 1, ['c'])
>>> table_state(None, ["a", "b", "c"])
(0, 1, [])
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.engine.errors import EngineError
from games.engine.thirteen_trio.rules import GAME, PLAYERS


def table_state(carry: Mapping[str, Any] | None, players: Sequence[str]) -> tuple[int, int, list[str]]:
    """``(head seat, game number in the set, players already counted disconnected)``."""
    if carry is None:
        return 0, 1, []
    try:
        old_players = list(carry["players"])
        head_player = old_players[int(carry["head"])]
        next_game = int(carry["next_game"])
        disconnected = [p for p in carry.get("disconnected", []) if p in players]
    except (KeyError, IndexError, TypeError, ValueError) as exc:
        raise EngineError(f"carry: not a {GAME} carry ({exc})") from exc
    head = list(players).index(head_player) if head_player in players else 0
    if old_players != list(players):
        next_game = 1
    return head, next_game, disconnected


def next_carry(
    *,
    players: Sequence[str],
    head: int,
    game_in_set: int,
    set_size: int,
    counted: bool,
    disconnected: Sequence[str],
) -> dict[str, Any]:
    """The carry after a game; ``counted`` is False for a voided game, which is replayed."""
    if not 0 <= head < PLAYERS:
        raise EngineError(f"head: expected a seat 0..{PLAYERS - 1}, got {head}")
    following = game_in_set % set_size + 1 if counted else game_in_set
    return {
        "game": GAME,
        "players": list(players),
        "head": head,
        "next_game": following,
        "disconnected": list(disconnected),
    }
