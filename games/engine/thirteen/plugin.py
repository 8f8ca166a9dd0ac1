"""十三张 ``thirteen`` as a plug-in (games/engine/protocol.py): what it states beyond the defaults.

>>> plugin = Thirteen()
>>> plugin.name, plugin.page, plugin.player_limits({}, 4), plugin.set_running(None, 1)
('thirteen', 'thirteen', (2, 4), False)
"""

from __future__ import annotations

from types import MappingProxyType

import games.engine.thirteen.bot as bot
import games.engine.thirteen.engine as engine
import games.engine.thirteen.hooks as hooks
import games.engine.thirteen.record as record
import games.engine.thirteen.replay as replay
import games.engine.thirteen.requests as requests
import games.engine.thirteen.sheet as sheet
import games.engine.thirteen.view as seen
import games.engine.thirteen.worth as worth
from games.engine.labels import gettext_noop
from games.engine.protocol import GameEngine


class Thirteen(GameEngine):
    """2-4 players, 13 cards each, three rows (docs/RULES.md section 1)."""

    name = "thirteen"
    label = gettext_noop("Thirteen (十三张)")
    page = "thirteen"
    glyph = "13"
    blurb = gettext_noop("2–4 players, 13 cards each: set a front of 3, a middle of 5 and a back of 5.")
    stake_word = "unit"
    phases = MappingProxyType({"arrange": gettext_noop("Arrange your rows")})
    hidden_cards = 13
    text_fields = ("dealer", "unit", "commission")

    new_hand = staticmethod(engine.new_hand)
    legal_actions = staticmethod(engine.legal_actions)
    awaiting = staticmethod(engine.awaiting)
    apply = staticmethod(engine.apply)
    deadline = staticmethod(engine.deadline)
    on_deadline = staticmethod(engine.on_deadline)
    auto_action = staticmethod(engine.auto_action)
    view = staticmethod(seen.view)
    result = staticmethod(engine.result)
    carry_over = staticmethod(engine.carry_over)
    suggestions = staticmethod(engine.suggestions)
    bot_move = staticmethod(bot.bot_move)

    stake_rules = staticmethod(hooks.stake_rules)
    player_limits = staticmethod(hooks.player_limits)
    rule_sheet = staticmethod(sheet.rule_sheet)

    record_part = staticmethod(record.record_part)
    redact = staticmethod(record.redact)
    check_deal = staticmethod(record.check_deal)
    check_score = staticmethod(record.check_score)

    text_variant = staticmethod(hooks.text_variant)
    seat_roles = staticmethod(hooks.seat_roles)
    showdown = staticmethod(replay.showdown)
    seat_worth = staticmethod(worth.seat_worth)

    # the command-line interface's requests (games/engine/cli.py), not part of the contract
    score_request = staticmethod(requests.score_request)
    arrange_request = staticmethod(requests.arrange_request)
