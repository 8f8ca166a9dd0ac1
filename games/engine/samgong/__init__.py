"""三公 ``samgong`` (docs/RULES.md section 3 and its original rule text): five modes behind one engine.

The package is the game's plug-in: it satisfies :class:`games.engine.protocol.GameEngine`.
``rules["mode"]`` in :func:`new_hand` picks ``all_compare`` (通比), ``banker_bid`` (搶莊),
``banker_rotate`` (輪莊), ``pairwise`` (兩兩比牌) or ``house`` (house-banked table).
Submodules: ``rules`` (rule sets as data), ``hands`` (evaluation, names, multipliers),
``poker3`` (house side bet), ``settle`` and ``house`` (pure settlement), ``split`` (exact
proportional splits), ``fair`` (seed-derived seat lotteries), ``machine`` / ``moves`` /
``view`` (the state machine), ``requests`` (:func:`score_request` for the command-line
scorer), ``hooks`` (the platform hooks), ``bot`` (the bot's move), ``record`` (its part of
the hand record).
"""

from games.engine.samgong.bot import bot_move
from games.engine.samgong.hands import HAND_NAMES, evaluate, hand_name, multiplier
from games.engine.samgong.hooks import (
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
from games.engine.samgong.machine import new_hand
from games.engine.samgong.moves import apply, auto_action, deadline, legal_actions, on_deadline, suggestions
from games.engine.samgong.record import check_deal, check_score, record_part, redact
from games.engine.samgong.replay import move_terms, showdown
from games.engine.samgong.requests import score_request
from games.engine.samgong.rules import MODES, mode_defaults, resolve_rules
from games.engine.samgong.sheet import rule_sheet
from games.engine.samgong.table import pending as awaiting
from games.engine.samgong.view import carry_over, result, view

__all__ = [
    "HAND_NAMES",
    "MODES",
    "apply",
    "auto_action",
    "awaiting",
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
    "resolve_rules",
    "result",
    "score_request",
    "view",
    "away_outcome",
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
    "rule_sheet",
    "set_progress",
    "modes",
    "move_terms",
    "name",
    "page",
    "player_limits",
    "presence_matters",
    "record_part",
    "redact",
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
    "void_on_outage",
]
