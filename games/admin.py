"""Live hands in Django admin: read-only (hands change through play only).

Nobody, staff included, sees a hand's hidden cards or its server seed before the hand ends.
While a hand is in play its page shows what a spectator is shown — the engine's own public
``view`` — and its actions only by type (an action carries the cards a seat played); the seed
is withheld. Once the hand is settled or voided everything is shown. No list column or search
field reads the state, the seed or the actions.
"""

from __future__ import annotations

import json
from typing import Any

from django.contrib import admin
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games.adapters import engine
from games.engine.registry import engine_for
from games.models import Hand, HandAction, Repair
from history.admin import GameFilter
from kernel.admin import ReadOnlyAdminMixin

HIDDEN = _("hidden until the hand ends")


def _json(value: Any) -> SafeString:
    return format_html('<pre style="white-space:pre-wrap;max-height:40em;overflow:auto">{}</pre>',
                       json.dumps(value, indent=2, ensure_ascii=False, sort_keys=True))


def hand_in_play(hand: Hand) -> bool:
    return hand.status == Hand.Status.ACTIVE


class HandActionInline(ReadOnlyAdminMixin, admin.TabularInline[HandAction, Hand]):
    model = HandAction
    extra = 0
    fields = ("seq", "seat", "user", "shown_action", "auto", "client_id", "at", "version")
    readonly_fields = fields

    @admin.display(description=_("action"))
    def shown_action(self, obj: HandAction) -> SafeString:
        """The whole action once the hand is over; while it is in play only its type."""
        if hand_in_play(obj.hand):
            return format_html("{} <em>({})</em>", obj.action.get("type", ""), HIDDEN)
        return _json(obj.action)


@admin.register(Hand)
class HandAdmin(ReadOnlyAdminMixin, admin.ModelAdmin[Hand]):
    list_display = ("id", "table", "number", "game_label", "status", "started_at", "finished_at",
                    "ledger_transaction_id")
    list_filter = ("status", GameFilter)
    search_fields = ("table__name",)
    list_select_related = ("table",)
    fields = ("table", "number", "game", "status", "version", "phase_seq", "deadline", "players", "commitment",
              "shown_seed", "client_seeds", "rules", "started_at", "finished_at", "ledger_transaction_id",
              "result", "shown_state")
    readonly_fields = fields
    inlines = [HandActionInline]

    @admin.display(description=_("game"), ordering="game")
    def game_label(self, obj: Hand) -> str:
        return gettext(engine_for(obj.game).label)

    @admin.display(description=_("server seed"))
    def shown_seed(self, obj: Hand) -> str:
        return str(HIDDEN) if hand_in_play(obj) else obj.server_seed

    @admin.display(description=_("state"))
    def shown_state(self, obj: Hand) -> SafeString:
        """The complete state once the hand is over; while it is in play the spectators' view."""
        return _json(engine(obj.game).view(obj.state, None) if hand_in_play(obj) else obj.state)


@admin.register(Repair)
class RepairAdmin(ReadOnlyAdminMixin, admin.ModelAdmin[Repair]):
    """What the liveness watchdog put right, newest first (games/services/watchdog.py)."""

    list_display = ("at", "kind", "table", "hand", "cause")
    list_filter = ("kind", "at")
    list_select_related = ("table", "hand")
    date_hierarchy = "at"
