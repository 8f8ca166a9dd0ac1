"""十三张 ``thirteen``: 2-4 players, 13 cards each, three rows (RULES.md section 1).

The engine follows :mod:`games.engine.protocol`; ``score_request`` / ``arrange_request``
serve ``python -m games score|arrange``. The automatic arrangement lives in
:mod:`games.engine.thirteen.arrange` (not re-exported, so the module name stays free).
"""

from games.engine.thirteen.api import arrange_request, score_request
from games.engine.thirteen.engine import (
    apply,
    auto_action,
    carry_over,
    deadline,
    legal_actions,
    new_hand,
    on_deadline,
    result,
    suggestions,
    view,
)
from games.engine.thirteen.hands import deal
from games.engine.thirteen.naturals import NATURALS, best_natural
from games.engine.thirteen.record import check_deal, check_score, record_part, redact
from games.engine.thirteen.stakes import DEFAULT_RULES, STAKE_LEVELS, eligible, game_rules

__all__ = [
    "DEFAULT_RULES",
    "NATURALS",
    "STAKE_LEVELS",
    "apply",
    "arrange_request",
    "auto_action",
    "best_natural",
    "carry_over",
    "check_deal",
    "check_score",
    "deadline",
    "deal",
    "eligible",
    "game_rules",
    "legal_actions",
    "new_hand",
    "on_deadline",
    "record_part",
    "redact",
    "result",
    "score_request",
    "suggestions",
    "view",
]
