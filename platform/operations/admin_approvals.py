"""Four eyes in Django admin: the approval requests (read-only rows) and the page where a second
staff member approves or refuses one with a reason (docs/OPERATIONS.md "Four eyes"). Staff who
may grant coins or review disputes see the requests; auditors read them."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse
from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from accounts.models import User
from accounts.roles import is_auditor
from kernel.admin import ReadOnlyAdminMixin
from operations.approvals import approval_decide, may_decide, may_decide_kind
from operations.models import ApprovalRequest
from wallet.money import format_coins


def may_see_approvals(user: Any) -> bool:
    if not (isinstance(user, User) and user.is_active and user.is_staff):
        return False
    return (is_auditor(user) or user.has_perm("operations.view_approvalrequest")
            or any(may_decide_kind(user, kind) for kind in ApprovalRequest.Kind.values))


class DecisionForm(forms.Form):
    decision = forms.ChoiceField(
        label=gettext_lazy("decision"), widget=forms.RadioSelect,
        choices=[("approve", gettext_lazy("Approve")), ("reject", gettext_lazy("Refuse"))],
    )
    reason = forms.CharField(label=gettext_lazy("reason"), max_length=500, widget=forms.Textarea(attrs={"rows": 2}))


@admin.register(ApprovalRequest)
class ApprovalRequestAdmin(ReadOnlyAdminMixin, admin.ModelAdmin[ApprovalRequest]):
    list_display = ("id", "requested_at", "kind", "status", "requested_by", "target_user", "amount_coins", "reason",
                    "decided_by", "decide_link")
    list_filter = ("status", "kind", "requested_at")
    search_fields = ("reason", "requested_by__username", "target_user__username")
    list_select_related = ("requested_by", "target_user", "decided_by")
    readonly_fields = ("kind", "status", "requested_by", "requested_at", "target_user", "amount_coins", "reason",
                       "dispute", "decided_by", "decided_at", "decision_reason", "ledger_transaction")
    fields = readonly_fields

    @admin.display(description=gettext_lazy("amount"))
    def amount_coins(self, row: ApprovalRequest) -> str:
        return format_coins(row.amount, grouping=True)

    @admin.display(description=gettext_lazy("decide"))
    def decide_link(self, row: ApprovalRequest) -> str:
        if row.status != ApprovalRequest.Status.PENDING:
            return ""
        return format_html('<a href="{}">{}</a>', reverse("admin:operations_approval_decide", args=[row.pk]),
                           _("Approve or refuse"))

    def has_module_permission(self, request: HttpRequest) -> bool:
        return may_see_approvals(request.user)

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return may_see_approvals(request.user)

    def get_urls(self) -> list[URLPattern]:
        view = self.admin_site.admin_view(self.decide_view)
        return [path("<int:approval_id>/decide/", view, name="operations_approval_decide"), *super().get_urls()]

    def decide_view(self, request: HttpRequest, approval_id: int) -> HttpResponse:
        """Approve or refuse one pending request, with a reason (never one's own)."""
        actor = request.user
        row = get_object_or_404(ApprovalRequest.objects.select_related("requested_by", "target_user"), pk=approval_id)
        if not isinstance(actor, User) or not may_decide_kind(actor, row.kind):
            raise PermissionDenied
        form = DecisionForm(request.POST or None)
        if request.method == "POST" and form.is_valid():
            try:
                decided = approval_decide(actor=actor, approval_id=row.pk, reason=form.cleaned_data["reason"],
                                          approve=form.cleaned_data["decision"] == "approve")
            except ValidationError as exc:
                form.add_error(None, exc)
            else:
                messages.success(request, _("Request #%(id)s: %(status)s.") % {
                    "id": decided.pk, "status": decided.get_status_display()})
                return HttpResponseRedirect(reverse("admin:operations_approvalrequest_changelist"))
        context = {**self.admin_site.each_context(request), "title": _("Approve or refuse"), "form": form,
                   "row": row, "amount": format_coins(row.amount, grouping=True), "opts": self.model._meta,
                   "may_decide": may_decide(actor, row)}
        return TemplateResponse(request, "admin/operations/decide.html", context)
