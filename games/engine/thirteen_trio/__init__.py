"""三人十三支 ``thirteen_trio``: the engine of docs/RULES.md section 2 and its original rule text.

``plugin`` is the game's plug-in (:class:`games.engine.thirteen_trio.plugin.ThirteenTrio`, the
contract of games/engine/protocol.py, with the optional ``void`` for games interrupted by our own
servers). The package also exports its rule set, the table-minimum helpers
(:func:`game_minimum`, :func:`set_minimum`, :func:`check_start`, :func:`end_set`), the
automatic arrangement and the command-line requests :func:`score_request` and
:func:`arrange_request`.
"""

from __future__ import annotations

from games.engine.thirteen_trio.arrange import arrange
from games.engine.thirteen_trio.plugin import ThirteenTrio
from games.engine.thirteen_trio.requests import arrange_request, score_request
from games.engine.thirteen_trio.rules import (
    BASES,
    DEFAULT_RULES,
    check_start,
    end_set,
    game_minimum,
    resolve_rules,
    set_minimum,
)

plugin = ThirteenTrio()

__all__ = [
    "BASES",
    "DEFAULT_RULES",
    "ThirteenTrio",
    "arrange",
    "arrange_request",
    "check_start",
    "end_set",
    "game_minimum",
    "plugin",
    "resolve_rules",
    "score_request",
    "set_minimum",
]
