"""High card as a plug-in: all it states beyond the contract's defaults (games/engine/protocol.py).

>>> HighCard().player_limits({}, 4), HighCard().set_progress({}, None, None)
((2, 4), None)
"""

from __future__ import annotations

from collections.abc import Sequence
from types import MappingProxyType
from typing import Any

from games.engine import defaults
from games.engine.labels import gettext_noop
from games.engine.protocol import GameEngine
from games.engine.sheet import line, sheet
from tests.games.toy_game import machine, record


class HighCard(GameEngine):
    """One card each, highest wins a unit from each lower card, ties push."""

    name = machine.GAME
    label = gettext_noop("High card (比大小)")
    page = "high_card"
    glyph = "A"
    blurb = gettext_noop("One card each: the highest wins a unit from each lower card.")
    stake_word = "unit"
    phases = MappingProxyType({machine.PHASE: gettext_noop("Show your card")})
    hidden_cards = 1
    text_fields = ("unit", "commission_percent")

    new_hand = staticmethod(machine.new_hand)
    legal_actions = staticmethod(machine.legal_actions)
    awaiting = staticmethod(machine.awaiting)
    apply = staticmethod(machine.apply)
    deadline = staticmethod(machine.deadline)
    on_deadline = staticmethod(machine.on_deadline)
    auto_action = staticmethod(machine.auto_action)
    view = staticmethod(machine.view)
    result = staticmethod(machine.result)
    carry_over = staticmethod(machine.carry_over)
    bot_move = staticmethod(machine.bot_move)

    record_part = staticmethod(record.record_part)
    redact = staticmethod(record.redact)
    check_deal = staticmethod(record.check_deal)
    check_score = staticmethod(record.check_score)
    text_variant = staticmethod(record.text_variant)
    showdown = staticmethod(record.showdown)

    def player_limits(self, rules: dict[str, Any], seats: int) -> tuple[int, int]:
        return machine.MIN_PLAYERS, min(machine.MAX_PLAYERS, seats)

    def start_problems(self, rules: dict[str, Any], stacks: Sequence[int], carry: dict[str, Any] | None,
                       min_table_money: int) -> list[dict[str, Any]]:
        """A seat must cover one unit to each other player, and the stake level's minimum."""
        unit = machine.resolve_rules(rules)["unit"]
        return defaults.below_table_minimum(stacks, max(min_table_money, (len(stacks) - 1) * unit))

    def rule_sheet(self, rules: dict[str, Any], seats: int) -> dict[str, Any]:
        resolved = machine.resolve_rules(rules)
        return sheet(players=self.player_limits(rules, seats), lines=[
            line(gettext_noop("Highest card wins {x} from each lower card; equal cards push."), money=("x",), x=resolved["unit"]),
        ])
