"""Stake levels and tables in Django admin.

A table that ever had a seat or a hand is never deleted — not from its page, not by the
changelist's "delete selected" — because its seats' table money would be stranded: staff
**close** it instead ("Close table", on the changelist and on the table's page), which cashes
out the idle seats at once and lets a hand in play finish (``games.services.seating.table_close``).
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from accounts.models import User
from games.services.seating import TableClosing
from operations.models import StaffAction
from operations.services import table_close_recorded
from operations.trail import staff_act
from tables.models import RoomPass, Seat, StakeLevel, Table
from tables.selectors import table_deletable
from wallet.money import format_coins


class StakeLevelForm(forms.ModelForm[StakeLevel]):
    """A stake level with the reason for the edit, which the staff trail keeps with the old and
    new values (docs/OPERATIONS.md "Staff trail")."""

    staff_reason = forms.CharField(label=gettext_lazy("reason for this edit"), max_length=500,
                                   widget=forms.Textarea(attrs={"rows": 2}))

    class Meta:
        model = StakeLevel
        fields = ("game", "mode", "name", "unit", "commission_percent", "min_buy_in", "min_table_money", "seats",
                  "rules", "active", "sort")


@admin.register(StakeLevel)
class StakeLevelAdmin(admin.ModelAdmin[StakeLevel]):
    form = StakeLevelForm
    list_display = (
        "name", "game", "mode", "unit", "commission_percent", "min_buy_in", "min_table_money", "seats", "active",
    )
    list_filter = ("game", "mode", "active")
    search_fields = ("name",)

    def save_model(self, request: HttpRequest, obj: StakeLevel, form: Any, change: bool) -> None:
        """Save, and record the edit (the changed fields' old and new values) in the staff trail."""
        actor = request.user
        if not isinstance(actor, User):  # never: the admin site lets in signed-in staff only
            raise PermissionDenied
        changed = [name for name in form.changed_data if name != "staff_reason"
                   and (not change or form.initial.get(name) != form.cleaned_data.get(name))]
        before = {name: form.initial.get(name) for name in changed} if change else None
        super().save_model(request, obj, form, change)
        staff_act(actor=actor, kind=StaffAction.Kind.STAKE_LEVEL, reason=form.cleaned_data["staff_reason"],
                  subject_type="stake_level", subject_id=obj.pk, before=before,
                  after={name: form.cleaned_data.get(name) for name in changed})


class SeatInline(admin.TabularInline[Seat, Table]):
    model = Seat
    extra = 0
    readonly_fields = ("index", "user", "status", "joined_at", "last_seen", "disconnected")
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Table | None = None) -> bool:
        return False  # seats change through play only


class CloseForm(forms.Form):
    reason = forms.CharField(
        label=gettext_lazy("reason"), max_length=200,
        help_text=gettext_lazy("Kept with the table, e.g. a stake level that is retired."),
    )


def closing_message(table: Table, closing: TableClosing) -> str:
    """What closing did, for the admin's message."""
    text = ngettext(
        "%(table)s is closed: %(count)d seat cashed out (%(coins)s coins back in the wallet).",
        "%(table)s is closed: %(count)d seats cashed out (%(coins)s coins back in the wallets).",
        closing.cashed_out,
    ) % {"table": table.name, "count": closing.cashed_out, "coins": format_coins(closing.amount)}
    if closing.in_hand:
        text += " " + ngettext(
            "The hand in play will finish; its %(count)d seat is cashed out when it ends.",
            "The hand in play will finish; its %(count)d seats are cashed out when it ends.",
            closing.in_hand,
        ) % {"count": closing.in_hand}
    return text


class RoomFilter(admin.SimpleListFilter):
    """Private rooms (docs/RULES.md "Private rooms") apart from the public tables."""

    title = gettext_lazy("private room")
    parameter_name = "room"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, Any]]:
        return [("yes", gettext_lazy("Private rooms")), ("no", gettext_lazy("Public tables"))]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Table]) -> QuerySet[Table]:
        if self.value() == "yes":
            return queryset.filter(room_code__isnull=False)
        if self.value() == "no":
            return queryset.filter(room_code__isnull=True)
        return queryset


class RoomPassInline(admin.TabularInline[RoomPass, Table]):
    model = RoomPass
    fk_name = "table"
    extra = 0
    readonly_fields = ("user", "via", "invited_by", "created_at", "removed_at", "seen_at")
    can_delete = False
    verbose_name_plural = gettext_lazy("room passes (who may watch and sit)")

    def has_add_permission(self, request: HttpRequest, obj: Table | None = None) -> bool:
        return False  # passes come from the room's code and invitations


@admin.register(Table)
class TableAdmin(admin.ModelAdmin[Table]):
    list_display = ("name", "stake_level", "status", "room_code", "room_owner", "hands_played", "created_at")
    list_filter = ("status", RoomFilter, "stake_level__game")
    search_fields = ("name", "room_code", "room_owner__username", "room_owner__display_name")
    readonly_fields = ("status", "closed_at", "closed_by", "close_reason", "carry", "hands_played", "version",
                       "created_at", "room_code", "room_owner", "room_started_at")
    inlines = [SeatInline, RoomPassInline]
    actions = ["close_tables"]

    # --- closing -------------------------------------------------------------------------

    def get_urls(self) -> list[URLPattern]:
        view = self.admin_site.admin_view(self.close_view)
        return [path("<int:table_id>/close/", view, name="tables_table_close"), *super().get_urls()]

    @admin.action(description=gettext_lazy("Close table"), permissions=["change"])
    def close_tables(self, request: HttpRequest, queryset: QuerySet[Table]) -> HttpResponse | None:
        """The changelist's action: a confirmation page with the reason, then each table closed."""
        tables = list(queryset.filter(status=Table.Status.OPEN).select_related("stake_level"))
        if not tables:
            self.message_user(request, _("The selected tables are closed already."), messages.WARNING)
            return None
        form = CloseForm(request.POST if "reason" in request.POST else None)
        if form.is_valid():
            for table in tables:
                self._close(request, table, form.cleaned_data["reason"])
            return None
        return self._confirmation(request, tables, form, action=True)

    def close_view(self, request: HttpRequest, table_id: int) -> HttpResponse:
        """The table page's "Close table" button: the same confirmation, for one table."""
        table = get_object_or_404(Table.objects.select_related("stake_level"), pk=table_id)
        if not self.has_change_permission(request, table):
            raise PermissionDenied
        form = CloseForm(request.POST or None)
        if request.method == "POST" and form.is_valid():
            self._close(request, table, form.cleaned_data["reason"])
            return HttpResponseRedirect(reverse("admin:tables_table_change", args=[table.pk]))
        return self._confirmation(request, [table], form, action=False)

    def _close(self, request: HttpRequest, table: Table, reason: str) -> None:
        actor = request.user
        if not isinstance(actor, User):  # never: the admin site lets in signed-in staff only
            raise PermissionDenied
        closing = table_close_recorded(actor=actor, table_id=table.pk, reason=reason)[1]
        self.log_change(request, table, _("Closed: %(reason)s") % {"reason": reason})
        self.message_user(request, closing_message(table, closing), messages.SUCCESS)

    def _confirmation(
        self, request: HttpRequest, tables: list[Table], form: CloseForm, *, action: bool
    ) -> HttpResponse:
        context = {
            **self.admin_site.each_context(request),
            "title": _("Close table"), "opts": self.model._meta, "tables": tables, "form": form,
            "action": "close_tables" if action else "", "action_checkbox_name": ACTION_CHECKBOX_NAME,
        }
        return TemplateResponse(request, "admin/tables/table/close.html", context)

    def change_view(
        self, request: HttpRequest, object_id: str, form_url: str = "", extra_context: dict[str, Any] | None = None
    ) -> HttpResponse:
        table = self.get_object(request, object_id)
        extra = {"can_close": table is not None and table.status == Table.Status.OPEN
                 and self.has_change_permission(request, table)}
        return super().change_view(request, object_id, form_url, {**(extra_context or {}), **extra})

    # --- deleting: only tables that never had a seat or a hand ---------------------------

    def has_delete_permission(self, request: HttpRequest, obj: Table | None = None) -> bool:
        return super().has_delete_permission(request, obj) and (obj is None or table_deletable(table=obj))

    def get_deleted_objects(
        self, objs: Any, request: HttpRequest
    ) -> tuple[list[Any], dict[Any, Any], set[Any], list[Any]]:
        """Both delete pages (the table's and "delete selected") refuse while any table in
        ``objs`` had a seat or a hand: it is listed as protected, so nothing is deleted."""
        deleted, counts, perms_needed, protected = super().get_deleted_objects(objs, request)
        kept = [
            _("%(table)s: it had seats or hands; close it instead.") % {"table": table.name}
            for table in objs if isinstance(table, Table) and not table_deletable(table=table)
        ]
        if kept:
            # Django lists a refused table (and its hands) as a missing permission; the page says
            # why instead. Nothing is deleted either way: the list of protected objects is not empty.
            perms_needed = set()
        return deleted, counts, perms_needed, [*protected, *kept]
