"""十三张 ``thirteen``: 2-4 players, 13 cards each, three rows (docs/RULES.md section 1).

``plugin`` is the game's plug-in (:class:`games.engine.thirteen.plugin.Thirteen`, the contract of
games/engine/protocol.py): the state machine of ``engine`` and ``view``, the hooks of ``hooks``,
the bot's move of ``bot``, its part of the hand record in ``record``. The package also exports
the rule set and the helpers of its own rules; the automatic arrangement lives in
:mod:`games.engine.thirteen.arrange` (not re-exported, so the module name stays free).
"""

from games.engine.thirteen.hands import deal
from games.engine.thirteen.naturals import NATURALS, best_natural
from games.engine.thirteen.plugin import Thirteen
from games.engine.thirteen.requests import arrange_request, score_request
from games.engine.thirteen.rules import DEFAULT_RULES, STAKE_LEVELS, eligible, resolve_rules

plugin = Thirteen()

__all__ = [
    "DEFAULT_RULES",
    "NATURALS",
    "STAKE_LEVELS",
    "Thirteen",
    "arrange_request",
    "best_natural",
    "deal",
    "eligible",
    "plugin",
    "resolve_rules",
    "score_request",
]
