"""Staff see a player's limits, what is pending and the history of changes; the values are the
player's own, so admin shows them read-only."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from responsible.models import LimitChange, PendingChange, PlayLimits


class _ReadOnly(admin.ModelAdmin):  # type: ignore[type-arg]
    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(PlayLimits)
class PlayLimitsAdmin(_ReadOnly):
    list_display = ("user", "daily_loss_limit", "weekly_loss_limit", "reminder_minutes", "excluded_until",
                    "cooling_until", "updated_at")
    list_filter = ("excluded_until",)
    search_fields = ("user__username",)
    readonly_fields = ("user", "daily_loss_limit", "weekly_loss_limit", "reminder_minutes", "excluded_until",
                       "cooling_until", "updated_at", "history")

    @admin.display(description="history")
    def history(self, obj: PlayLimits) -> str:
        rows = LimitChange.objects.filter(user_id=obj.user_id)[:100]
        return "\n".join(f"{c.created_at:%Y-%m-%d %H:%M} {c.setting}: {c.old_value} → {c.new_value}"
                         f"{f' until {c.until:%Y-%m-%d %H:%M}' if c.until else ''}"
                         f" (applies {c.applies_at:%Y-%m-%d %H:%M})" for c in rows) or "-"


@admin.register(LimitChange)
class LimitChangeAdmin(_ReadOnly):
    list_display = ("created_at", "user", "setting", "old_value", "new_value", "until", "applies_at")
    list_filter = ("setting",)
    search_fields = ("user__username",)
    date_hierarchy = "created_at"


@admin.register(PendingChange)
class PendingChangeAdmin(_ReadOnly):
    list_display = ("user", "setting", "value", "applies_at")
    search_fields = ("user__username",)
