"""Hand records in Django admin: read-only for everyone (records are immutable), with the
replay, the complete record, and streamed exports of the selected records."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, TypeAlias

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest, StreamingHttpResponse
from django.template.loader import render_to_string
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from django_stubs_ext import StrOrPromise

from games.engine.registry import engine_for, games
from history.exports.budget import ExportRefused
from history.exports.stream import export_lines, export_response
from history.models import HandRecord
from history.replay import replay
from history.selectors import record_with_hash

#: An admin action exporting the selected hand records.
ExportAction: TypeAlias = Callable[
    [admin.ModelAdmin[HandRecord], HttpRequest, QuerySet[HandRecord]], StreamingHttpResponse | None
]


def replay_html(record: HandRecord) -> SafeString:
    """The complete record's replay, as on the player's page but with every card."""
    return body_replay_html(record_with_hash(record))


def record_json(record: HandRecord) -> SafeString:
    return body_json(record_with_hash(record))


def body_replay_html(body: dict[str, Any]) -> SafeString:
    """The replay of a record's body: the complete record, or a player's copy."""
    return render_to_string("history/_admin_replay.html", {"replay": replay(body)})


def body_json(body: dict[str, Any]) -> SafeString:
    return format_html('<pre style="white-space:pre-wrap;max-height:40em;overflow:auto">{}</pre>',
                       json.dumps(body, indent=2, ensure_ascii=False, sort_keys=True))


def _export(fmt: str, label: StrOrPromise) -> ExportAction:
    @admin.action(description=label, permissions=["view"])
    def action(
        modeladmin: admin.ModelAdmin[HandRecord], request: HttpRequest, queryset: QuerySet[HandRecord]
    ) -> StreamingHttpResponse | None:
        try:
            return export_response(request, export_lines(queryset.order_by("id"), fmt), fmt=fmt, filename="hands")
        except ExportRefused as exc:  # past the exports' budget: said on the changelist
            modeladmin.message_user(request, exc.localized(), messages.ERROR)
            return None

    action.__name__ = f"export_{fmt}"
    return action


class GameFilter(admin.SimpleListFilter):
    """The hands or records of one game, each named as the players call it (the registry's labels)."""

    title = _("game")
    parameter_name = "game"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return [(engine.name, gettext(engine.label)) for engine in games()]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        return queryset.filter(game=self.value()) if self.value() else queryset


@admin.register(HandRecord)
class HandRecordAdmin(admin.ModelAdmin[HandRecord]):
    list_display = ("hand_id_shown", "finished_at", "game_label", "stake_level", "table", "number", "chain_seq",
                    "short_hash")
    list_filter = (GameFilter, "stake_level")
    list_select_related = ("stake_level", "table")
    date_hierarchy = "finished_at"
    search_fields = ("=hash", "=hand__id", "seats__user__username")
    actions = [
        _export("jsonl", _("Export selected hands (JSON Lines)")),
        _export("text", _("Export selected hands (text)")),
        _export("csv", _("Export selected hands (CSV)")),
    ]
    fields = ("hand", "table", "stake_level", "game", "number", "chain_seq", "prev_hash", "hash", "started_at",
              "finished_at", "ledger_transaction_id", "recorded_at", "replay", "record")
    readonly_fields = fields

    @admin.display(description=_("hand id"), ordering="hand_id")
    def hand_id_shown(self, obj: HandRecord) -> int:
        return obj.hand_id

    @admin.display(description=_("game"), ordering="game")
    def game_label(self, obj: HandRecord) -> str:
        return gettext(engine_for(obj.game).label)

    @admin.display(description=_("hash"))
    def short_hash(self, obj: HandRecord) -> str:
        return obj.hash[:12]

    @admin.display(description=_("replay"))
    def replay(self, obj: HandRecord) -> SafeString:
        return replay_html(obj)

    @admin.display(description=_("record"))
    def record(self, obj: HandRecord) -> SafeString:
        return record_json(obj)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
