"""Ledger admin: everything read-only. Staff grant and adjust coins through the staff action form
(Operations → Staff activity → Staff action), which records each act in the staff trail and
holds large ones for a second staff member; "Grant or adjust coins" here leads there."""

from __future__ import annotations

from typing import Any, TypeVar

from django.contrib import admin
from django.db.models import Model
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import reverse
from django.utils.translation import gettext_lazy

from kernel.admin import ReadOnlyAdminMixin
from wallet.forms import WelcomeGrantForm
from wallet.models import Account, Entry, House, LedgerTransaction, WelcomeGrant
from wallet.money import format_coins
from wallet.selectors import house_balances

_M = TypeVar("_M", bound=Model)


class ReadOnlyAdmin(ReadOnlyAdminMixin, admin.ModelAdmin[_M]):
    """View only, for everyone: ledger rows are never added, changed or deleted by hand."""


class EntryInline(ReadOnlyAdminMixin, admin.TabularInline[Entry, LedgerTransaction]):
    model = Entry
    fields = ("account", "house", "amount_coins", "balance_after_coins")
    readonly_fields = fields
    can_delete = False
    extra = 0
    max_num = 0

    @admin.display(description=gettext_lazy("amount"))
    def amount_coins(self, entry: Entry) -> str:
        return format_coins(entry.amount)

    @admin.display(description=gettext_lazy("balance after"))
    def balance_after_coins(self, entry: Entry) -> str:
        return "" if entry.balance_after is None else format_coins(entry.balance_after)


@admin.register(LedgerTransaction)
class LedgerTransactionAdmin(ReadOnlyAdmin[LedgerTransaction]):
    list_display = ("id", "created_at", "kind", "reference", "idempotency_key", "actor", "memo")
    list_filter = ("kind", "created_at")
    search_fields = ("idempotency_key", "reference", "memo")
    readonly_fields = ("kind", "idempotency_key", "reference", "actor", "memo", "reverses", "payload",
                       "payload_hash", "created_at")
    inlines = [EntryInline]
    date_hierarchy = "created_at"


@admin.register(Entry)
class EntryAdmin(ReadOnlyAdmin[Entry]):
    list_display = ("id", "transaction", "account", "house", "amount", "balance_after")
    list_filter = ("house",)
    list_select_related = ("transaction", "account")
    search_fields = ("transaction__reference", "account__user__username", "account__table_ref")


@admin.register(Account)
class AccountAdmin(ReadOnlyAdmin[Account]):
    list_display = ("id", "kind", "user", "table_ref", "balance_coins")
    list_filter = ("kind",)
    search_fields = ("user__username", "table_ref")
    readonly_fields = ("kind", "user", "table_ref", "balance", "created_at")
    change_list_template = "wallet/admin/account_change_list.html"

    @admin.display(description=gettext_lazy("balance"))
    def balance_coins(self, account: Account) -> str:
        return format_coins(account.balance)

    def changelist_view(self, request: HttpRequest, extra_context: dict[str, Any] | None = None) -> HttpResponse:
        """Above the player accounts: the house accounts, each the sum of its entries."""
        labels = dict(House.choices)
        houses = [(labels[name], format_coins(amount)) for name, amount in house_balances().items()]
        return super().changelist_view(request, {**(extra_context or {}), "house_balances": houses})


@admin.register(WelcomeGrant)
class WelcomeGrantAdmin(admin.ModelAdmin[WelcomeGrant]):
    """One row: the coins every new player is given at sign-up (docs/WALLET.md "Welcome coins").
    The list opens that row; it is never added (it exists once read) nor deleted."""

    form = WelcomeGrantForm
    list_display = ("amount_coins", "updated_at")

    @admin.display(description=gettext_lazy("welcome coins"))
    def amount_coins(self, row: WelcomeGrant) -> str:
        return format_coins(row.amount)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: WelcomeGrant | None = None) -> bool:
        return False

    def changelist_view(self, request: HttpRequest, extra_context: dict[str, Any] | None = None) -> HttpResponse:
        row = WelcomeGrant.current()
        return HttpResponseRedirect(reverse("admin:wallet_welcomegrant_change", args=[row.pk]))
