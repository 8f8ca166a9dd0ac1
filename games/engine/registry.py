"""Which games exist (docs/RULES.md sections 1-3): the only place in the project that names them.

Each game is one package whose ``plugin`` is a :class:`games.engine.protocol.GameEngine`;
adding a game is its package, its table template and one entry in :data:`GAMES`. Packages are
imported lazily, on first use, so importing the registry (or the command-line interface) does
not pull in every game. :func:`register` adds the plug-in of a game kept outside
``games.engine`` (the contract's example game of the tests, tests/games/toy_game);
:func:`game_codes` lists every game either way.

>>> GAMES
('thirteen', 'thirteen_trio', 'samgong')
>>> engine_for("thirteen").name, [g.name for g in games()] == list(game_codes())
('thirteen', True)
>>> engine_for("poker")
Traceback (most recent call last):
...
games.engine.errors.EngineError: unknown game 'poker': expected one of thirteen, thirteen_trio, samgong
"""

from __future__ import annotations

import importlib

from games.engine.errors import EngineError
from games.engine.protocol import GameEngine

#: Every game's code, in display order (home page, lobby, stake level choices); each names its
#: package ``games.engine.<code>``.
GAMES: tuple[str, ...] = ("thirteen", "thirteen_trio", "samgong")

_loaded: dict[str, GameEngine] = {}
_added: dict[str, GameEngine] = {}


def register(plugin: GameEngine) -> None:
    """Add a game kept outside ``games.engine`` by its plug-in, after the games of :data:`GAMES`."""
    if plugin.name in GAMES or plugin.name in _added:
        raise EngineError(f"game {plugin.name!r} is already registered")
    _added[plugin.name] = plugin


def unregister(game: str) -> None:
    """Remove a game :func:`register` added (the games of :data:`GAMES` stay)."""
    if game not in _added:
        raise EngineError(f"game {game!r} was not added by register")
    del _added[game]


def game_codes() -> tuple[str, ...]:
    """Every registered game's code, in display order."""
    return (*GAMES, *_added)


def engine_for(game: object) -> GameEngine:
    """The plug-in of ``game`` (a registered code); :class:`EngineError` for anything else."""
    if isinstance(game, str) and game in _loaded:  # the live path asks several times a frame
        return _loaded[game]
    if isinstance(game, str) and game in _added:
        return _added[game]
    if not isinstance(game, str) or game not in GAMES:
        raise EngineError(f"unknown game {game!r}: expected one of {', '.join(game_codes())}")
    try:
        module = importlib.import_module(f"games.engine.{game}")
    except ModuleNotFoundError as exc:
        if exc.name != f"games.engine.{game}":
            raise
        raise EngineError(f"game {game!r} is not available in this installation") from exc
    plugin = getattr(module, "plugin", None)
    if not isinstance(plugin, GameEngine) or plugin.name != game:
        raise EngineError(f"games.engine.{game}.plugin is not the GameEngine of {game!r}")
    _loaded[game] = plugin
    return plugin


def games() -> tuple[GameEngine, ...]:
    """Every registered game's plug-in, in display order."""
    return tuple(engine_for(game) for game in game_codes())
