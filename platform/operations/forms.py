from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from config.bounds import AMOUNT_MAX
from operations.models import StaffAction
from tables.models import Table


class StaffActionForm(forms.Form):
    kind = forms.ChoiceField(label=_("action"), choices=StaffAction.Kind.choices)
    player = forms.CharField(label=_("player (user name)"), required=False, max_length=150)
    table = forms.ModelChoiceField(label=_("table"), queryset=Table.objects.order_by("-id"), required=False)
    amount = forms.IntegerField(label=_("amount (minor units)"), required=False, min_value=1, max_value=AMOUNT_MAX)
    reason = forms.CharField(label=_("reason"), max_length=500, widget=forms.Textarea(attrs={"rows": 2}))
    request_key = forms.CharField(widget=forms.HiddenInput)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        kind = data.get("kind")
        if kind in (StaffAction.Kind.GRANT, StaffAction.Kind.BAN, StaffAction.Kind.UNBAN):
            user = User.objects.filter(username=data.get("player") or "").first()
            if user is None:
                self.add_error("player", _("No such player."))
            data["user"] = user
            if kind == StaffAction.Kind.GRANT and not data.get("amount"):
                self.add_error("amount", _("The amount must be a positive number of coins."))
        elif kind and data.get("table") is None:
            self.add_error("table", _("Choose a table."))
        return data
