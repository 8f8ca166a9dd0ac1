"""三人十三支 ``thirteen_trio``: the engine of docs/RULES.md section 2 and its original rule text.

The package is the game's plug-in: it satisfies :class:`games.engine.protocol.GameEngine`
(the state machine ``new_hand`` … ``carry_over``, the platform hooks of
:mod:`games.engine.thirteen_trio.hooks`, the bot's move) and adds :func:`void` for games
interrupted by our own servers, the table-minimum helpers
(:func:`game_minimum`, :func:`set_minimum`, :func:`check_start`, :func:`end_set`) and the
command-line requests :func:`score_request` and :func:`arrange_request`.
"""

from __future__ import annotations

from games.engine.thirteen_trio.arrange import arrange
from games.engine.thirteen_trio.bot import bot_move
from games.engine.thirteen_trio.engine import (
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
    void,
)
from games.engine.thirteen_trio.hooks import (
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
    modes,
    name,
    page,
    player_limits,
    presence_matters,
    seat_commissions,
    seat_roles,
    set_running,
    stake_rules,
    stake_word,
    start_problems,
    table_lines,
    text_fields,
    text_variant,
    void_on_outage,
)
from games.engine.thirteen_trio.record import check_deal, check_score, record_part, redact
from games.engine.thirteen_trio.replay import move_terms, showdown
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
from games.engine.thirteen_trio.sheet import leave_terms, rule_sheet, set_progress
from games.engine.thirteen_trio.view import view

__all__ = [
    "away_outcome",
    "BASES",
    "DEFAULT_RULES",
    "apply",
    "arrange",
    "arrange_request",
    "auto_action",
    "awaiting",
    "carry_over",
    "check_deal",
    "check_score",
    "check_start",
    "deadline",
    "end_set",
    "game_minimum",
    "legal_actions",
    "new_hand",
    "on_deadline",
    "result",
    "score_request",
    "suggestions",
    "set_minimum",
    "view",
    "void",
    "bot_move",
    "carry_after_removal",
    "carry_for",
    "deal_lines",
    "hand_label",
    "hidden_cards",
    "house_lines",
    "blurb",
    "glyph",
    "label",
    "leave_terms",
    "modes",
    "move_terms",
    "name",
    "page",
    "player_limits",
    "presence_matters",
    "record_part",
    "redact",
    "resolve_rules",
    "rule_sheet",
    "seat_commissions",
    "seat_roles",
    "set_progress",
    "set_running",
    "showdown",
    "stake_rules",
    "stake_word",
    "start_problems",
    "table_lines",
    "text_fields",
    "text_variant",
    "void_on_outage",
]
