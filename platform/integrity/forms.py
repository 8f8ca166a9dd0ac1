"""The form a case is worked with in admin (``integrity.admin``), which calls
``integrity.services.cases``; its request key is issued and checked as the staff-action form's."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from integrity.models import Case
from kernel.bounds import AMOUNT_MAX
from operations.forms import StaffActionForm
from tables.models import Table


class CaseWorkForm(forms.Form):
    class Step:
        NOTE, INVESTIGATE, ASSIGN, BAN, VOID, CONFISCATE, CLEAR, ACTIONED = (
            "note", "investigate", "assign", "ban", "void", "confiscate", "cleared", "actioned")

    STEPS = (
        (Step.NOTE, _("add a note")),
        (Step.INVESTIGATE, _("start investigating")),
        (Step.ASSIGN, _("assign")),
        (Step.BAN, _("ban an account")),
        (Step.VOID, _("void the hand in play at a table")),
        (Step.CONFISCATE, _("confiscate coins")),
        (Step.CLEAR, _("close: cleared")),
        (Step.ACTIONED, _("close: actioned")),
    )

    step = forms.ChoiceField(label=_("what to do"), choices=STEPS)
    account = forms.ModelChoiceField(label=_("account"), queryset=User.objects.none(), required=False)
    assignee = forms.ModelChoiceField(label=_("assignee"), queryset=User.objects.none(), required=False)
    table = forms.ModelChoiceField(label=_("table"), queryset=Table.objects.order_by("-id"), required=False)
    amount = forms.IntegerField(label=_("amount (minor units)"), required=False, min_value=1, max_value=AMOUNT_MAX)
    text = forms.CharField(label=_("note or reason"), max_length=2000, required=False,
                           widget=forms.Textarea(attrs={"rows": 3}))
    request_key = forms.CharField(widget=forms.HiddenInput, max_length=300)

    def __init__(self, *args: Any, case: Case, actor_id: int, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.actor_id = actor_id
        self.fields["account"].queryset = case.accounts.order_by("username")  # type: ignore[attr-defined]
        self.fields["assignee"].queryset = User.objects.filter(is_staff=True, is_active=True).order_by("username")  # type: ignore[attr-defined]

    clean_request_key = StaffActionForm.clean_request_key

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        step = data.get("step")
        needs = {
            self.Step.BAN: ("account", "text"), self.Step.CONFISCATE: ("account", "amount", "text"),
            self.Step.VOID: ("table", "text"), self.Step.NOTE: ("text",), self.Step.CLEAR: ("text",),
            self.Step.ACTIONED: ("text",),
        }.get(step or "", ())
        for name in needs:
            if not data.get(name):
                self.add_error(name, _("This field is required."))
        return data
