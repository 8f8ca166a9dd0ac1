"""Which games exist (docs/RULES.md sections 1-3): the only place in the project that names them.

Each game is one package whose ``plugin`` is a :class:`games.engine.protocol.GameEngine`;
adding a game is its package, its table template and one entry in :data:`GAMES`. Packages are
imported lazily, on first use, so importing the registry (or the command-line interface) does
not pull in every game. :func:`register` adds a game from a package outside ``games.engine``
(the contract's example game of the tests); :func:`game_codes` lists every game either way.

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

_packages: dict[str, str] = {game: f"games.engine.{game}" for game in GAMES}
_loaded: dict[str, GameEngine] = {}


def register(game: str, package: str) -> None:
    """Add ``game``, whose plug-in is ``package``'s ``plugin``, after the games of :data:`GAMES`."""
    if game in _packages:
        raise EngineError(f"game {game!r} is already registered")
    _packages[game] = package


def unregister(game: str) -> None:
    """Remove a game :func:`register` added (the games of :data:`GAMES` stay)."""
    if game in GAMES or game not in _packages:
        raise EngineError(f"game {game!r} was not added by register")
    del _packages[game]
    _loaded.pop(game, None)


def game_codes() -> tuple[str, ...]:
    """Every registered game's code, in display order."""
    return tuple(_packages)


def engine_for(game: object) -> GameEngine:
    """The plug-in of ``game`` (a registered code); :class:`EngineError` for anything else."""
    if isinstance(game, str) and game in _loaded:  # the live path asks several times a frame
        return _loaded[game]
    if not isinstance(game, str) or game not in _packages:
        raise EngineError(f"unknown game {game!r}: expected one of {', '.join(_packages)}")
    try:
        module = importlib.import_module(_packages[game])
    except ModuleNotFoundError as exc:
        if exc.name != _packages[game]:
            raise
        raise EngineError(f"game {game!r} is not available in this installation") from exc
    plugin = getattr(module, "plugin", None)
    if not isinstance(plugin, GameEngine) or plugin.name != game:
        raise EngineError(f"{_packages[game]}.plugin is not the GameEngine of {game!r}")
    _loaded[game] = plugin
    return plugin


def games() -> tuple[GameEngine, ...]:
    """Every registered game's plug-in, in display order."""
    return tuple(engine_for(game) for game in _packages)
