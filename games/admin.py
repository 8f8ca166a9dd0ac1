"""Live hands in Django admin: read-only (hands change through play only)."""

from typing import Any

from django.contrib import admin

from games.models import Hand, HandAction


class ReadOnlyMixin:
    def has_add_permission(self, request: Any, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: Any, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: Any, obj: Any = None) -> bool:
        return False


class HandActionInline(ReadOnlyMixin, admin.TabularInline):
    model = HandAction
    extra = 0
    fields = ("seq", "seat", "user", "action", "auto", "client_id", "at", "version")
    readonly_fields = fields


@admin.register(Hand)
class HandAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ("id", "table", "number", "game", "status", "started_at", "finished_at", "ledger_transaction_id")
    list_filter = ("status", "game")
    search_fields = ("table__name",)
    inlines = [HandActionInline]
