"""三公 ``samgong`` (RULES.md section 3, seed 002): five modes behind one engine.

The module follows games/engine/protocol.py; ``rules["mode"]`` in :func:`new_hand` picks
``all_compare`` (通比), ``banker_bid`` (搶莊), ``banker_rotate`` (輪莊), ``pairwise``
(兩兩比牌) or ``house`` (house-banked table). Submodules: ``rules`` (rule sets as data),
``hands`` (evaluation, names, multipliers), ``poker3`` (house side bet), ``settle`` and
``house`` (pure settlement), ``split`` (exact proportional splits), ``fair`` (seed-derived
seat lotteries), ``machine`` / ``moves`` / ``views`` (the state machine), ``request``
(:func:`score_request` for the command-line scorer).
"""

from games.engine.samgong.hands import HAND_NAMES, evaluate, hand_name, multiplier
from games.engine.samgong.machine import new_hand
from games.engine.samgong.moves import apply, auto_action, deadline, legal_actions, on_deadline
from games.engine.samgong.record import check_deal, check_score, record_part, redact
from games.engine.samgong.request import score_request
from games.engine.samgong.rules import MODES, mode_defaults, resolve_rules
from games.engine.samgong.views import carry_over, result, view

__all__ = [
    "HAND_NAMES",
    "MODES",
    "apply",
    "auto_action",
    "carry_over",
    "check_deal",
    "check_score",
    "deadline",
    "evaluate",
    "hand_name",
    "legal_actions",
    "mode_defaults",
    "multiplier",
    "new_hand",
    "on_deadline",
    "record_part",
    "redact",
    "resolve_rules",
    "result",
    "score_request",
    "view",
]
