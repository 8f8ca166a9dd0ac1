"""三人十三支 ``thirteen_trio`` as a plug-in (games/engine/protocol.py): what it states beyond the
defaults — the 6-game set, the leaver rules that make presence matter, outage voids.

>>> plugin = ThirteenTrio()
>>> plugin.name, plugin.presence_matters, plugin.void_on_outage, plugin.player_limits({}, 6)
('thirteen_trio', True, True, (3, 3))
"""

from __future__ import annotations

from types import MappingProxyType

import games.engine.thirteen_trio.bot as bot
import games.engine.thirteen_trio.engine as engine
import games.engine.thirteen_trio.hooks as hooks
import games.engine.thirteen_trio.record as record
import games.engine.thirteen_trio.replay as replay
import games.engine.thirteen_trio.requests as requests
import games.engine.thirteen_trio.rules as rules
import games.engine.thirteen_trio.sheet as sheet
import games.engine.thirteen_trio.view as seen
import games.engine.thirteen_trio.worth as worth
from games.engine.labels import gettext_noop
from games.engine.protocol import GameEngine


class ThirteenTrio(GameEngine):
    """Exactly 3 players, 17 cards each, sets of 6 games (docs/RULES.md section 2)."""

    name = rules.GAME
    label = gettext_noop("Three-player thirteen (三人十三支)")
    page = "thirteen"
    glyph = "17"
    blurb = gettext_noop("Exactly 3 players, 17 cards each: play your best 13. Only scoops pay.")
    stake_word = "base"
    phases = MappingProxyType({"arrange": gettext_noop("Arrange your rows")})
    presence_matters = True
    void_on_outage = True
    hidden_cards = rules.HAND_SIZE
    text_fields = ("jackpot", "head", "base", "commission_percent")

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
    #: the optional capability of games/engine/protocol.py ``Voidable``
    void = staticmethod(engine.void)

    stake_rules = staticmethod(hooks.stake_rules)
    player_limits = staticmethod(hooks.player_limits)
    start_problems = staticmethod(hooks.start_problems)
    rule_sheet = staticmethod(sheet.rule_sheet)
    house_lines = staticmethod(hooks.house_lines)

    carry_for = staticmethod(hooks.carry_for)
    set_running = staticmethod(hooks.set_running)
    away_outcome = staticmethod(hooks.away_outcome)
    carry_after_removal = staticmethod(hooks.carry_after_removal)
    set_progress = staticmethod(sheet.set_progress)
    leave_terms = staticmethod(sheet.leave_terms)

    record_part = staticmethod(record.record_part)
    redact = staticmethod(record.redact)
    check_deal = staticmethod(record.check_deal)
    check_score = staticmethod(record.check_score)

    text_variant = staticmethod(hooks.text_variant)
    deal_lines = staticmethod(hooks.deal_lines)
    seat_commissions = staticmethod(hooks.seat_commissions)
    seat_roles = staticmethod(hooks.seat_roles)
    showdown = staticmethod(replay.showdown)
    seat_worth = staticmethod(worth.seat_worth)

    # the command-line interface's requests (games/engine/cli.py), not part of the contract
    score_request = staticmethod(requests.score_request)
    arrange_request = staticmethod(requests.arrange_request)
