"""Admin: the daily bonus's one row (docs/WALLET.md "Daily bonus")."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import reverse
from django.utils.translation import gettext_lazy

from rewards.forms import DailyBonusForm
from rewards.models import DailyBonus
from wallet.money import format_coins


@admin.register(DailyBonus)
class DailyBonusAdmin(admin.ModelAdmin[DailyBonus]):
    """One row: what a player short of coins may claim once a day. The list opens that row; it
    is never added (it exists once read) nor deleted."""

    form = DailyBonusForm
    list_display = ("amount_coins", "floor_coins", "updated_at")

    @admin.display(description=gettext_lazy("daily bonus"))
    def amount_coins(self, row: DailyBonus) -> str:
        return format_coins(row.amount)

    @admin.display(description=gettext_lazy("floor"))
    def floor_coins(self, row: DailyBonus) -> str:
        return format_coins(row.floor)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: DailyBonus | None = None) -> bool:
        return False

    def changelist_view(self, request: HttpRequest, extra_context: dict[str, Any] | None = None) -> HttpResponse:
        row = DailyBonus.current()
        return HttpResponseRedirect(reverse("admin:rewards_dailybonus_change", args=[row.pk]))
