"""Operations in Django admin: the house dashboard (staff and auditors), its CSV, the staff
activity page (the StaffAction changelist, filterable), its CSV export (auditors and
superusers) and the staff-action form, which calls :mod:`operations.services`."""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse
from django.utils.translation import gettext as _

from accounts.models import User
from accounts.roles import is_auditor
from kernel.admin import ReadOnlyAdminMixin
from operations import (
    admin_trail,  # noqa: F401 - registers the welcome coins' page with its trail
    dashboard_views,
    selectors,
    services,
)
from operations.admin_approvals import may_see_approvals
from operations.dashboard_views import may_see_dashboard
from operations.exports import trail_csv, trail_json
from operations.forms import COIN_KINDS, FORM_KINDS, StaffActionForm, request_key_issue
from operations.models import StaffAction
from operations.trail import staff_action_by_key
from wallet.money import format_coins


def may_export(user: Any) -> bool:
    return bool(user.is_active and user.is_staff and (
        user.is_superuser or is_auditor(user) or user.has_perm("operations.export_activity")))


@admin.register(StaffAction)
class StaffActionAdmin(ReadOnlyAdminMixin, admin.ModelAdmin[StaffAction]):
    list_display = ("at", "kind", "actor", "target_user", "target_table", "amount_coins", "ledger_transaction",
                    "reason")
    list_filter = ("kind", "at", ("actor", admin.RelatedOnlyFieldListFilter),
                   ("target_user", admin.RelatedOnlyFieldListFilter),
                   ("target_table", admin.RelatedOnlyFieldListFilter))
    search_fields = ("reason", "actor__username", "target_user__username", "target_table__name")
    list_select_related = ("actor", "target_user", "target_table", "ledger_transaction")
    date_hierarchy = "at"
    change_list_template = "admin/operations/activity_change_list.html"

    @admin.display(description=_("amount"))
    def amount_coins(self, action: StaffAction) -> str:
        return "" if action.amount is None else format_coins(action.amount)

    def get_urls(self) -> list[URLPattern]:
        wrap = self.admin_site.admin_view
        return [
            path("dashboard/", wrap(self.dashboard_view), name="operations_dashboard"),
            path("dashboard.csv", wrap(self.dashboard_csv), name="operations_dashboard_csv"),
            path("export.csv", wrap(self.export_view), name="operations_activity_export"),
            path("export.jsonl", wrap(self.export_view), name="operations_activity_export_json"),
            path("act/", wrap(self.act_view), name="operations_act"),
            *super().get_urls(),
        ]

    def changelist_view(self, request: HttpRequest, extra_context: dict[str, Any] | None = None) -> HttpResponse:
        user = request.user
        may_act = isinstance(user, User) and any(services.may_act(user, k) for k in FORM_KINDS)
        extra = {"may_export": may_export(user), "may_see_dashboard": may_see_dashboard(user), "may_act": may_act,
                 "may_see_approvals": may_see_approvals(user), **(extra_context or {})}
        return super().changelist_view(request, extra)

    # --- dashboard ---------------------------------------------------------------------------

    def dashboard_view(self, request: HttpRequest) -> HttpResponse:
        board = dashboard_views.dashboard_board(request)
        context = {**self.admin_site.each_context(request), "title": _("House dashboard"),
                   "periods": selectors.PERIODS, "opts": self.model._meta, **dashboard_views.dashboard_context(board)}
        return TemplateResponse(request, "admin/operations/dashboard.html", context)

    def dashboard_csv(self, request: HttpRequest) -> HttpResponse:
        return dashboard_views.dashboard_csv(dashboard_views.dashboard_board(request))

    # --- activity export ---------------------------------------------------------------------

    def export_view(self, request: HttpRequest) -> HttpResponse:
        if not may_export(request.user):
            raise PermissionDenied
        rows = self.get_changelist_instance(request).get_queryset(request)
        return trail_json(rows) if request.path.endswith(".jsonl") else trail_csv(rows)

    # --- staff actions -----------------------------------------------------------------------

    def act_view(self, request: HttpRequest) -> HttpResponse:
        actor = request.user
        assert isinstance(actor, User)
        if not any(services.may_act(actor, k) for k in FORM_KINDS):
            raise PermissionDenied
        prefill = {k: v for k, v in request.GET.dict().items() if k != "request_key"}  # the server issues it
        initial = {**prefill, "request_key": request_key_issue(actor_id=actor.pk)}
        form = StaffActionForm(request.POST or None, initial=initial, actor_id=actor.pk)
        if request.method == "POST" and form.is_valid():
            data = form.cleaned_data
            done_before = staff_action_by_key(kind=data["kind"], request_key=data["request_key"])
            try:
                if done_before is not None and not _same_action(done_before, data):
                    raise ValidationError(_("This form was already used for another action: reload the page "
                                            "to take a new one."))
                action = _act(actor, data)
            except ValidationError as exc:
                form.add_error(None, exc)
            else:
                messages.success(request, _done_message(action, again=done_before is not None))
                return HttpResponseRedirect(reverse("admin:operations_staffaction_changelist"))
        context = {**self.admin_site.each_context(request), "title": _("Staff action"), "form": form,
                   "opts": self.model._meta}
        return TemplateResponse(request, "admin/operations/act.html", context)


def _done_message(action: StaffAction, *, again: bool) -> str:
    if action.kind == StaffAction.Kind.APPROVAL_ASKED:
        text = _("Waiting for a second staff member's approval: request #%(id)s.") % {"id": action.subject_id}
        return _("Already asked: %(action)s") % {"action": text} if again else text
    done = _("Already done: %(action)s.") if again else _("Done: %(action)s.")
    return done % {"action": action.get_kind_display()}


def _same_action(action: StaffAction, data: dict[str, Any]) -> bool:
    """Whether a resubmitted form asks for the action its key already took (same target and amount)."""
    kind = data["kind"]
    if kind in (*COIN_KINDS, StaffAction.Kind.BAN, StaffAction.Kind.UNBAN):
        same_target = action.target_user_id == data["user"].pk
    else:
        same_target = action.target_table_id == data["table"].pk
    return same_target and (kind not in COIN_KINDS or action.amount == data["amount"])


def _act(actor: User, data: dict[str, Any]) -> StaffAction:
    kind, reason, key = data["kind"], data["reason"], data["request_key"]
    if kind == StaffAction.Kind.GRANT:
        return services.staff_grant(actor=actor, user=data["user"], amount=data["amount"], reason=reason,
                                    request_key=key)
    if kind == StaffAction.Kind.ADJUST:
        return services.staff_adjust(actor=actor, user=data["user"], amount=data["amount"], reason=reason,
                                     request_key=key)
    if kind == StaffAction.Kind.BAN:
        return services.staff_ban(actor=actor, user=data["user"], reason=reason, request_key=key)
    if kind == StaffAction.Kind.UNBAN:
        return services.staff_unban(actor=actor, user=data["user"], reason=reason, request_key=key)
    if kind == StaffAction.Kind.TABLE_CORRECT:
        return services.staff_table_correct(actor=actor, table_id=data["table"].pk, reason=reason, request_key=key)
    return services.staff_table_close(actor=actor, table_id=data["table"].pk, reason=reason, request_key=key)
