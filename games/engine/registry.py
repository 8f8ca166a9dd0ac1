"""Which games exist and where their engines live (RULES.md sections 1-3).

Engine packages are imported lazily, on first use, so importing the registry (or the
command-line interface) does not pull in every game.

>>> GAMES
('thirteen', 'thirteen_trio', 'samgong')
>>> engine_for("poker")
Traceback (most recent call last):
...
games.engine.errors.EngineError: unknown game 'poker': expected one of thirteen, thirteen_trio, samgong
"""

from __future__ import annotations

import importlib
from types import ModuleType

from games.engine.errors import EngineError

GAMES: tuple[str, ...] = ("thirteen", "thirteen_trio", "samgong")


def engine_for(game: object) -> ModuleType:
    """The engine package of ``game`` (one of :data:`GAMES`); :class:`EngineError` for anything else."""
    if not isinstance(game, str) or game not in GAMES:
        raise EngineError(f"unknown game {game!r}: expected one of {', '.join(GAMES)}")
    try:
        return importlib.import_module(f"games.engine.{game}")
    except ModuleNotFoundError as exc:
        if exc.name != f"games.engine.{game}":
            raise
        raise EngineError(f"game {game!r} is not available in this installation") from exc
