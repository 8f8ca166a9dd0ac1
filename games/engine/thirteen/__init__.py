"""十三张 ``thirteen``: 2-4 players, 13 cards each, three rows (docs/RULES.md section 1).

The package is the game's plug-in: it satisfies :class:`games.engine.protocol.GameEngine`
(the state machine of ``engine`` and ``view``, the platform hooks of ``hooks``, the bot's move of
``bot``, its part of the hand record in ``record``); ``score_request`` / ``arrange_request``
(``requests``) serve ``python -m games score|arrange``. The automatic arrangement lives in
:mod:`games.engine.thirteen.arrange` (not re-exported, so the module name stays free).
"""

from games.engine.thirteen.bot import bot_move
from games.engine.thirteen.engine import (
    apply,
    auto_action,
    awaiting,
    carry_over,
    deadline,
    legal_actions,
    new_hand,
    on_deadline,
    result,
    suggestions,
)
from games.engine.thirteen.hands import deal
from games.engine.thirteen.hooks import (
    away_outcome,
    blurb,
    carry_after_removal,
    carry_for,
    deal_lines,
    glyph,
    hand_label,
    hidden_cards,
    house_lines,
    label,
    leave_terms,
    modes,
    name,
    page,
    player_limits,
    presence_matters,
    seat_commissions,
    seat_roles,
    set_progress,
    set_running,
    stake_rules,
    stake_word,
    start_problems,
    table_lines,
    text_fields,
    text_variant,
    void_on_outage,
)
from games.engine.thirteen.naturals import NATURALS, best_natural
from games.engine.thirteen.record import check_deal, check_score, record_part, redact
from games.engine.thirteen.replay import move_terms, showdown
from games.engine.thirteen.requests import arrange_request, score_request
from games.engine.thirteen.rules import DEFAULT_RULES, STAKE_LEVELS, eligible, resolve_rules
from games.engine.thirteen.sheet import rule_sheet
from games.engine.thirteen.view import view

__all__ = [
    "away_outcome",
    "DEFAULT_RULES",
    "NATURALS",
    "STAKE_LEVELS",
    "apply",
    "arrange_request",
    "auto_action",
    "awaiting",
    "best_natural",
    "bot_move",
    "carry_after_removal",
    "carry_for",
    "carry_over",
    "check_deal",
    "check_score",
    "deadline",
    "deal",
    "deal_lines",
    "eligible",
    "hand_label",
    "hidden_cards",
    "house_lines",
    "blurb",
    "glyph",
    "label",
    "leave_terms",
    "rule_sheet",
    "set_progress",
    "legal_actions",
    "modes",
    "move_terms",
    "name",
    "new_hand",
    "on_deadline",
    "page",
    "player_limits",
    "presence_matters",
    "record_part",
    "redact",
    "resolve_rules",
    "result",
    "score_request",
    "seat_commissions",
    "seat_roles",
    "set_running",
    "showdown",
    "stake_rules",
    "stake_word",
    "start_problems",
    "suggestions",
    "table_lines",
    "text_fields",
    "text_variant",
    "view",
    "void_on_outage",
]
