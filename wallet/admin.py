"""Ledger admin: everything read-only. Coins move only through the grant/adjust form, which
posts a transaction through the wallet services with the admin as the actor."""

from __future__ import annotations

from typing import Any, TypeVar

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.db.models import Model
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from accounts.models import User
from accounts.requests import AuthenticatedHttpRequest
from kernel.admin import ReadOnlyAdminMixin
from wallet import services
from wallet.errors import WalletError
from wallet.forms import GrantForm, WelcomeGrantForm
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

    def get_urls(self) -> list[URLPattern]:
        view = self.admin_site.admin_view(self.grant_view)
        return [path("grant/", view, name="wallet_account_grant"), *super().get_urls()]

    def grant_view(self, request: AuthenticatedHttpRequest) -> HttpResponse:
        """Grant or adjust a player's coins: one posting, the admin as actor."""
        if not request.user.has_perm("wallet.post_adjustment"):
            raise PermissionDenied
        form = GrantForm(request.POST or None)
        if request.method == "POST" and form.is_valid():
            try:
                txn = _post_grant(form.cleaned_data, actor=request.user)
            except WalletError as error:
                form.add_error(None, error.localized())
            else:
                messages.success(request, _("Posted ledger transaction #%(id)s.") % {"id": txn.pk})
                return HttpResponseRedirect(reverse("admin:wallet_ledgertransaction_change", args=[txn.pk]))
        context = {**self.admin_site.each_context(request), "form": form, "opts": self.model._meta,
                   "title": _("Grant or adjust coins")}
        return TemplateResponse(request, "wallet/admin/grant.html", context)


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


def _post_grant(data: dict[str, Any], *, actor: User) -> LedgerTransaction:
    user, amount, reason, key = data["username"], data["amount"], data["reason"], data["idempotency_key"]
    if data["operation"] == GrantForm.GRANT:
        return services.wallet_grant(user=user, amount=amount, idempotency_key=key, actor=actor, memo=reason,
                                     reference=f"admin:{actor.pk}")
    return services.wallet_adjust(user=user, amount=amount, reason=reason, idempotency_key=key, actor=actor,
                                  reference=f"admin:{actor.pk}")
