"""Staff see a player's limits, what is pending and the history of changes; the values are the
player's own, so admin shows them read-only."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.db.models import Count, Q, QuerySet
from django.http import HttpRequest
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from responsible.models import LimitChange, LimitRefusal, PendingChange, PlayLimits, Setting
from responsible.selectors import DAY, WEEK, table_loss
from wallet.money import format_coins


def _coins(minor: int | None) -> str:
    return "-" if minor is None else format_coins(minor, grouping=True)


class _ReadOnly(admin.ModelAdmin):  # type: ignore[type-arg]
    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(PlayLimits)
class PlayLimitsAdmin(_ReadOnly):
    list_display = ("user", "daily_limit", "daily_loss", "weekly_limit", "weekly_loss", "refusals_week",
                    "reminder_minutes", "excluded_until", "cooling_until", "updated_at")
    list_filter = ("excluded_until",)
    search_fields = ("user__username",)
    list_select_related = ("user",)
    readonly_fields = ("user", "daily_limit", "daily_loss", "weekly_limit", "weekly_loss", "reminder_minutes",
                       "excluded_until", "cooling_until", "updated_at", "history")
    exclude = ("daily_loss_limit", "weekly_loss_limit")

    def get_queryset(self, request: HttpRequest) -> QuerySet[PlayLimits]:
        week = Q(user__limit_refusals__created_at__gte=timezone.now() - WEEK)
        return super().get_queryset(request).annotate(refused=Count("user__limit_refusals", filter=week))

    @admin.display(description=_("refusals in the last 7 days"), ordering="refused")
    def refusals_week(self, obj: PlayLimits) -> int:
        return int(getattr(obj, "refused", 0))

    @admin.display(description=_("daily loss limit"))
    def daily_limit(self, obj: PlayLimits) -> str:
        return _coins(obj.daily_loss_limit)

    @admin.display(description=_("weekly loss limit"))
    def weekly_limit(self, obj: PlayLimits) -> str:
        return _coins(obj.weekly_loss_limit)

    @admin.display(description=_("lost in the last 24 hours"))
    def daily_loss(self, obj: PlayLimits) -> str:
        """What the daily limit counts so far (responsible.selectors.table_loss), in coins."""
        return _coins(table_loss(user=obj.user, since=timezone.now() - DAY))

    @admin.display(description=_("lost in the last 7 days"))
    def weekly_loss(self, obj: PlayLimits) -> str:
        return _coins(table_loss(user=obj.user, since=timezone.now() - WEEK))

    @admin.display(description=_("history"))
    def history(self, obj: PlayLimits) -> str:
        rows = LimitChange.objects.filter(user_id=obj.user_id)[:100]
        return "\n".join(f"{c.created_at:%Y-%m-%d %H:%M} {c.get_setting_display()}: {_value(c, c.old_value)} → "
                         f"{_value(c, c.new_value)}{f' → {c.until:%Y-%m-%d %H:%M}' if c.until else ''}"
                         f" ({c.applies_at:%Y-%m-%d %H:%M})" for c in rows) or "-"


def _value(change: LimitChange, value: int | None) -> str:
    """A loss limit in coins; the reminder's minutes as they are."""
    if change.setting in (Setting.DAILY, Setting.WEEKLY):
        return _coins(value)
    return "-" if value is None else str(value)


@admin.register(LimitChange)
class LimitChangeAdmin(_ReadOnly):
    list_display = ("created_at", "user", "setting", "old", "new", "until", "applies_at")

    @admin.display(description=_("old value"))
    def old(self, obj: LimitChange) -> str:
        return _value(obj, obj.old_value)

    @admin.display(description=_("new value"))
    def new(self, obj: LimitChange) -> str:
        return _value(obj, obj.new_value)
    list_filter = ("setting",)
    search_fields = ("user__username",)
    date_hierarchy = "created_at"


@admin.register(PendingChange)
class PendingChangeAdmin(_ReadOnly):
    list_display = ("user", "setting", "value", "applies_at")
    search_fields = ("user__username",)


@admin.register(LimitRefusal)
class LimitRefusalAdmin(_ReadOnly):
    """Buy-ins and top-ups the players' own limits refused (``games.services.seating``)."""

    list_display = ("created_at", "user", "reason", "amount_coins", "table_id")
    list_filter = ("reason",)
    search_fields = ("user__username",)
    list_select_related = ("user",)
    date_hierarchy = "created_at"

    @admin.display(description=_("amount asked"), ordering="amount")
    def amount_coins(self, obj: LimitRefusal) -> str:
        return _coins(obj.amount)
