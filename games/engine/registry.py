"""Which games exist (docs/RULES.md sections 1-3): the only place in the project that names them.

Each game is one engine package satisfying :class:`games.engine.protocol.GameEngine`; adding a
game is its package, its table template and one entry in :data:`GAMES`. Packages are imported
lazily, on first use, so importing the registry (or the command-line interface) does not pull
in every game.

>>> GAMES
('thirteen', 'thirteen_trio', 'samgong')
>>> engine_for("thirteen").name, [g.name for g in games()] == list(GAMES)
('thirteen', True)
>>> engine_for("poker")
Traceback (most recent call last):
...
games.engine.errors.EngineError: unknown game 'poker': expected one of thirteen, thirteen_trio, samgong
"""

from __future__ import annotations

import importlib
from typing import cast

from games.engine.errors import EngineError
from games.engine.protocol import GameEngine

#: Every game's code, in display order (lobby, stake level choices); each names its package.
GAMES: tuple[str, ...] = ("thirteen", "thirteen_trio", "samgong")


_loaded: dict[str, GameEngine] = {}


def engine_for(game: object) -> GameEngine:
    """The engine package of ``game`` (one of :data:`GAMES`); :class:`EngineError` for anything else."""
    if isinstance(game, str) and game in _loaded:  # the live path asks several times a frame
        return _loaded[game]
    if not isinstance(game, str) or game not in GAMES:
        raise EngineError(f"unknown game {game!r}: expected one of {', '.join(GAMES)}")
    try:
        module = importlib.import_module(f"games.engine.{game}")
    except ModuleNotFoundError as exc:
        if exc.name != f"games.engine.{game}":
            raise
        raise EngineError(f"game {game!r} is not available in this installation") from exc
    _loaded[game] = cast(GameEngine, module)
    return _loaded[game]


def games() -> tuple[GameEngine, ...]:
    """Every game's engine, in the order of :data:`GAMES`."""
    return tuple(engine_for(game) for game in GAMES)
