"""三公 ``samgong`` (docs/RULES.md section 3 and its original rule text): five modes behind one engine.

``plugin`` is the game's plug-in (:class:`games.engine.samgong.plugin.SamGong`, the contract of
games/engine/protocol.py). ``rules["mode"]`` in ``new_hand`` picks ``all_compare`` (通比),
``banker_bid`` (搶莊), ``banker_rotate`` (輪莊), ``pairwise`` (兩兩比牌) or ``house``
(house-banked table). Submodules: ``rules`` (rule sets as data), ``hands`` (evaluation, names,
multipliers), ``poker3`` (house side bet), ``settle`` and ``house`` (pure settlement), ``split``
(exact proportional splits), ``fair`` (seed-derived seat lotteries), ``machine`` / ``moves`` /
``view`` (the state machine), ``requests`` (:func:`score_request` for the command-line
scorer), ``hooks`` (where its hooks differ from the defaults), ``bot`` (the bot's move),
``record`` (its part of the hand record), ``plugin`` (all of it as one object).
"""

from games.engine.samgong.hands import HAND_NAMES, evaluate, hand_name, multiplier
from games.engine.samgong.plugin import SamGong
from games.engine.samgong.requests import score_request
from games.engine.samgong.rules import MODES, mode_defaults, resolve_rules

plugin = SamGong()

__all__ = [
    "HAND_NAMES",
    "MODES",
    "SamGong",
    "evaluate",
    "hand_name",
    "mode_defaults",
    "multiplier",
    "plugin",
    "resolve_rules",
    "score_request",
]
