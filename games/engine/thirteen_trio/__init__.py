"""三人十三支 ``thirteen_trio``: the engine of RULES.md section 2 (seed 003).

The package follows games/engine/protocol.py (``new_hand`` … ``carry_over``) and adds
:func:`void` for games interrupted by our own servers, the table-minimum helpers
(:func:`game_minimum`, :func:`set_minimum`, :func:`check_start`, :func:`end_set`) and the
command-line requests :func:`score_request` and :func:`arrange_request`.
"""

from __future__ import annotations

from games.engine.thirteen_trio.arrange import arrange
from games.engine.thirteen_trio.engine import (
    apply,
    auto_action,
    carry_over,
    deadline,
    legal_actions,
    new_hand,
    on_deadline,
    result,
    suggestions,
    void,
)
from games.engine.thirteen_trio.record import check_deal, check_score, record_part, redact
from games.engine.thirteen_trio.requests import arrange_request, score_request
from games.engine.thirteen_trio.rules import (
    BASES,
    DEFAULT_RULES,
    check_start,
    end_set,
    game_minimum,
    set_minimum,
)
from games.engine.thirteen_trio.view import view

__all__ = [
    "BASES",
    "DEFAULT_RULES",
    "apply",
    "arrange",
    "arrange_request",
    "auto_action",
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
    "record_part",
    "redact",
    "result",
    "score_request",
    "suggestions",
    "set_minimum",
    "view",
    "void",
]
