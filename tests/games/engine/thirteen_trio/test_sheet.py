"""What leaving mid-set costs and where the set stands (docs/RULES.md section 2, "Sets",
"Disconnecting or leaving"): the figures the leave confirmation shows."""

from __future__ import annotations

from typing import Any

import pytest

from games.engine import thirteen_trio as trio
from games.engine.thirteen_trio.money import penalty

RULES = {"base": 20_000, "commission_percent": 5}
SEED = "00" * 32


def _game(carry: dict[str, Any] | None) -> dict[str, Any]:
    seats = [{"player": p, "stack": 10**7} for p in ("7", "8", "9")]
    return trio.plugin.new_hand(rules=RULES, seats=seats, carry=carry, server_seed=SEED, now=1_700_000_000.0)


def _carry(next_game: int, disconnected: list[str] | None = None) -> dict[str, Any]:
    return {"game": "thirteen_trio", "players": ["7", "8", "9"], "head": 0, "next_game": next_game,
            "disconnected": disconnected or []}


@pytest.mark.parametrize(("game", "left"), [(1, 6), (2, 5), (6, 1)])
def test_in_a_game_of_the_set_the_games_left_include_this_one_and_the_penalty_is_half_a_base(game, left):
    state = _game(_carry(game) if game > 1 else None)
    terms = trio.plugin.leave_terms(RULES, None, state, 8)
    assert terms == {"games_left": left, "game": game, "size": 6,
                     "penalty": penalty(base=20_000, payer=1, head=0)["amount"]}
    assert terms["penalty"] == 10_000


def test_no_penalty_when_another_seat_disconnected_first_in_this_game():
    state, _ = trio.plugin.apply(_game(None), 0, {"type": "disconnect"}, now=1_700_000_001.0)
    assert trio.plugin.leave_terms(RULES, None, state, 8)["penalty"] == 0
    assert trio.plugin.leave_terms(RULES, None, state, 7)["penalty"] == 0  # already counted away


def test_between_games_the_next_game_counts_and_a_seat_still_away_is_not_charged_again():
    saved = {"engine": _carry(4, ["9"]), "players": [7, 8, 9]}
    assert trio.plugin.leave_terms(RULES, saved, None, 8) == {"games_left": 3, "game": 4, "size": 6, "penalty": 10_000}
    assert trio.plugin.leave_terms(RULES, saved, None, 9)["penalty"] == 0


def test_leaving_binds_nobody_once_the_set_is_over_or_outside_it():
    assert trio.plugin.leave_terms(RULES, {"engine": _carry(1), "players": [7, 8, 9]}, None, 8) is None
    assert trio.plugin.leave_terms(RULES, {"engine": _carry(3), "players": [7, 8, 9]}, None, 5) is None
    assert trio.plugin.leave_terms(RULES, None, None, 8) is None


def test_the_set_progress_is_the_game_in_play_or_the_next_one():
    state = _game(_carry(3))
    assert trio.plugin.set_progress(RULES, None, state) == {"game": 3, "size": 6, "in_play": True}
    assert trio.plugin.set_progress(RULES, {"engine": _carry(4), "players": [7, 8, 9]}, None) == {
        "game": 4, "size": 6, "in_play": False}
    assert trio.plugin.set_progress({**RULES, "set_size": 4}, {}, None) == {"game": 1, "size": 4, "in_play": False}
