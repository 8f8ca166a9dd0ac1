"""三公 ``samgong`` as a plug-in (games/engine/protocol.py): what it states beyond the defaults —
five modes, their phases, and the house table's lines in the text export.

>>> from games.engine.samgong.rules import MODES
>>> plugin = SamGong()
>>> plugin.name, list(plugin.modes) == list(MODES), plugin.player_limits({"mode": "house"}, 6)
('samgong', True, (1, 6))
"""

from __future__ import annotations

from types import MappingProxyType

import games.engine.samgong.bot as bot
import games.engine.samgong.hooks as hooks
import games.engine.samgong.lean as lean
import games.engine.samgong.machine as machine
import games.engine.samgong.moves as moves
import games.engine.samgong.record as record
import games.engine.samgong.replay as replay
import games.engine.samgong.requests as requests
import games.engine.samgong.sheet as sheet
import games.engine.samgong.table as table
import games.engine.samgong.view as seen
from games.engine.labels import gettext_noop
from games.engine.protocol import GameEngine


class SamGong(GameEngine):
    """Three cards, points mod 10; ``rules["mode"]`` picks one of five modes (docs/RULES.md section 3)."""

    name = "samgong"
    label = gettext_noop("Sam Gong (三公)")
    #: The five modes (``games.engine.samgong.rules.MODES``), in that order.
    modes = MappingProxyType({
        "all_compare": gettext_noop("All compare (通比)"),
        "banker_bid": gettext_noop("Banker bid (抢庄)"),
        "banker_rotate": gettext_noop("Rotating banker (轮庄)"),
        "pairwise": gettext_noop("Pairwise (两两比牌)"),
        "house": gettext_noop("House banker"),
    })
    phases = MappingProxyType({
        "bid": gettext_noop("Bid for the bank"),
        "offer": gettext_noop("The bank is offered"),
        "bet": gettext_noop("Place your bets"),
        "reveal": gettext_noop("Reveal your cards"),
    })
    page = "samgong"
    glyph = "三"
    blurb = gettext_noop("Three cards, points count mod 10; three face cards beat any points.")
    stake_word = "base"
    hidden_cards = 3
    text_fields = ("base", "mode", "banker")

    new_hand = staticmethod(machine.new_hand)
    legal_actions = staticmethod(moves.legal_actions)
    awaiting = staticmethod(table.pending)
    apply = staticmethod(moves.apply)
    deadline = staticmethod(moves.deadline)
    on_deadline = staticmethod(moves.on_deadline)
    auto_action = staticmethod(moves.auto_action)
    view = staticmethod(seen.view)
    result = staticmethod(seen.result)
    carry_over = staticmethod(seen.carry_over)
    suggestions = staticmethod(moves.suggestions)
    bot_move = staticmethod(bot.bot_move)

    stake_rules = staticmethod(hooks.stake_rules)
    player_limits = staticmethod(hooks.player_limits)
    rule_sheet = staticmethod(sheet.rule_sheet)

    record_part = staticmethod(record.record_part)
    redact = staticmethod(record.redact)
    check_deal = staticmethod(record.check_deal)
    check_score = staticmethod(record.check_score)

    text_variant = staticmethod(hooks.text_variant)
    table_lines = staticmethod(hooks.table_lines)
    seat_roles = staticmethod(hooks.seat_roles)
    pair_flows = staticmethod(hooks.pair_flows)
    bet_lean = staticmethod(lean.bet_lean)
    move_terms = replay.move_terms
    showdown = staticmethod(replay.showdown)

    # the command-line interface's request (games/engine/cli.py), not part of the contract
    score_request = staticmethod(requests.score_request)
