"""Live hands in Django admin: read-only (hands change through play only)."""

from django.contrib import admin

from config.admin import ReadOnlyAdminMixin
from games.models import Hand, HandAction


class HandActionInline(ReadOnlyAdminMixin, admin.TabularInline):
    model = HandAction
    extra = 0
    fields = ("seq", "seat", "user", "action", "auto", "client_id", "at", "version")
    readonly_fields = fields


@admin.register(Hand)
class HandAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    list_display = ("id", "table", "number", "game", "status", "started_at", "finished_at", "ledger_transaction_id")
    list_filter = ("status", "game")
    search_fields = ("table__name",)
    inlines = [HandActionInline]
