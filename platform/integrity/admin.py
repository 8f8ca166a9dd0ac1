"""Cases in Django admin (docs/INTEGRITY.md "Cases"): read by auditors and by staff who may view
them; worked (notes, status, assignee, actions) by staff who may change them, through the form
on the case's page, which calls ``integrity.services.cases``."""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.urls import URLPattern, path, reverse
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from accounts.models import User
from integrity.forms import CaseWorkForm
from integrity.models import Case, CaseAction, CaseNote, PairSignal
from integrity.services import cases as services
from kernel.admin import ReadOnlyAdminMixin
from kernel.errors import AppError
from operations.forms import request_key_issue
from wallet.money import format_coins


class CaseNoteInline(ReadOnlyAdminMixin, admin.TabularInline[CaseNote, Case]):
    model = CaseNote
    fields = ("at", "author", "event", "text")
    readonly_fields = fields
    extra = 0


class CaseActionInline(ReadOnlyAdminMixin, admin.TabularInline[CaseAction, Case]):
    model = CaseAction
    fields = ("at", "kind", "actor", "target_user", "target_table", "amount_coins", "ledger_transaction",
              "staff_action", "reason")
    readonly_fields = fields
    extra = 0

    @admin.display(description=gettext_lazy("coins"))
    def amount_coins(self, action: CaseAction) -> str:
        return "" if action.amount is None else format_coins(action.amount)


@admin.register(Case)
class CaseAdmin(ReadOnlyAdminMixin, admin.ModelAdmin[Case]):
    list_display = ("id", "signal", "flag_list", "status", "assignee", "linked", "opened_at", "updated_at")
    list_filter = ("status", "signal")
    search_fields = ("accounts__username",)
    fields = ("signal", "flag_list", "status", "assignee", "opened_at", "updated_at", "closed_at", "closed_by",
              "linked", "figures", "hands")
    readonly_fields = fields
    inlines = (CaseNoteInline, CaseActionInline)
    change_form_template = "admin/integrity/case_change_form.html"

    @admin.display(description=gettext_lazy("flags"))
    def flag_list(self, case: Case) -> str:
        return ", ".join(_flag_label(f) for f in case.flags)

    @admin.display(description=gettext_lazy("linked accounts"))
    def linked(self, case: Case) -> str:
        return format_html_join(", ", '<a href="{}">{}</a>', (
            (reverse("integrity:player", args=[u.pk]), u.username) for u in case.accounts.order_by("username")))

    @admin.display(description=gettext_lazy("figures when opened"))
    def figures(self, case: Case) -> str:
        return format_html_join(", ", "{}: {}", ((k, v) for k, v in sorted(case.summary.items())))

    @admin.display(description=gettext_lazy("hands"))
    def hands(self, case: Case) -> str:
        links = format_html_join(" ", '<a href="{}">{}</a>', (
            (reverse("history-hand", args=[h]), h) for h in case.hand_ids[:50]))
        more = len(case.hand_ids) - 50
        return format_html("{} {}", links, f"(+{more})" if more > 0 else "")

    def get_urls(self) -> list[URLPattern]:
        work = path("<path:object_id>/work/", self.admin_site.admin_view(self.work_view),
                    name="integrity_case_work")
        return [work, *super().get_urls()]

    def change_view(self, request: HttpRequest, object_id: str, form_url: str = "",
                    extra_context: dict[str, Any] | None = None) -> HttpResponse:
        case = get_object_or_404(Case, pk=object_id)
        extra = dict(extra_context or {})
        if isinstance(request.user, User) and services.may_work_cases(request.user):
            extra["work_form"] = CaseWorkForm(case=case, actor_id=request.user.pk,
                                              initial={"request_key": request_key_issue(actor_id=request.user.pk)})
        return super().change_view(request, object_id, form_url, extra)

    def work_view(self, request: HttpRequest, object_id: str) -> HttpResponse:
        actor = request.user
        if request.method != "POST" or not isinstance(actor, User) or not services.may_work_cases(actor):
            raise PermissionDenied
        case = get_object_or_404(Case, pk=object_id)
        form = CaseWorkForm(request.POST, case=case, actor_id=actor.pk)
        back = reverse("admin:integrity_case_change", args=[case.pk])
        if not form.is_valid():
            for field, errors in form.errors.items():
                label = form.fields[field].label if field in form.fields else ""
                text = " ".join(str(e) for e in errors)
                messages.error(request, f"{label}: {text}" if label else text)
            return HttpResponseRedirect(back)
        try:
            _work(case, actor, form.cleaned_data)
        except (ValidationError, PermissionDenied) as exc:
            messages.error(request, " ".join(getattr(exc, "messages", None) or [str(exc) or _("You may not do this.")]))
        except AppError as exc:  # a wallet refusal: not enough coins in the wallet
            messages.error(request, exc.localized())
        else:
            messages.success(request, _("Done."))
        return HttpResponseRedirect(back)


def _flag_label(code: str) -> str:
    labels = {**dict(PairSignal.Flag.choices), "welcome": _("welcome coins passed on")}
    return str(labels.get(code, code))


def _work(case: Case, actor: User, data: dict[str, Any]) -> None:
    step, text, key = data["step"], (data.get("text") or "").strip(), data["request_key"]
    steps = CaseWorkForm.Step
    if step == steps.NOTE:
        services.case_note_add(case_id=case.pk, actor=actor, text=text)
    elif step == steps.INVESTIGATE:
        services.case_investigate(case_id=case.pk, actor=actor)
    elif step == steps.ASSIGN:
        services.case_assign(case_id=case.pk, actor=actor, assignee=data.get("assignee"))
    elif step == steps.BAN:
        services.case_ban(case_id=case.pk, actor=actor, user=data["account"], reason=text, request_key=key)
    elif step == steps.VOID:
        services.case_void(case_id=case.pk, actor=actor, table_id=data["table"].pk, reason=text, request_key=key)
    elif step == steps.CONFISCATE:
        services.case_confiscate(case_id=case.pk, actor=actor, user=data["account"], amount=data["amount"],
                                 reason=text, request_key=key)
    else:
        services.case_close(case_id=case.pk, actor=actor, outcome=step, reason=text)
