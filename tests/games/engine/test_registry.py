"""The registry: the built-in games by code, and a game kept outside games/engine added and
removed by its plug-in (games/engine/registry.py)."""

from __future__ import annotations

import pytest

from games.engine import registry
from games.engine.errors import EngineError
from tests.games.toy_game import plugin as toy


def test_a_registered_plugin_is_found_by_its_code_after_the_built_in_games_until_it_is_removed() -> None:
    registry.register(toy)
    try:
        assert registry.game_codes() == (*registry.GAMES, toy.name)
        assert registry.engine_for(toy.name) is toy and registry.games()[-1] is toy
    finally:
        registry.unregister(toy.name)
    assert registry.game_codes() == registry.GAMES
    with pytest.raises(EngineError, match="unknown game 'high_card'"):
        registry.engine_for(toy.name)


def test_a_code_cannot_be_registered_twice_nor_a_built_in_game_removed() -> None:
    builtin = registry.engine_for("thirteen")
    with pytest.raises(EngineError, match="already registered"):
        registry.register(builtin)
    registry.register(toy)
    try:
        with pytest.raises(EngineError, match="already registered"):
            registry.register(toy)
    finally:
        registry.unregister(toy.name)
    with pytest.raises(EngineError, match="not added by register"):
        registry.unregister("thirteen")
    assert registry.engine_for("thirteen") is builtin
