from __future__ import annotations

import uuid
from typing import Any

from django import forms
from django.core import signing
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from kernel.bounds import AMOUNT_MAX
from operations.models import StaffAction
from tables.models import Table

#: A staff action's request key is issued by the server in the form, signed for the staff member
#: it was shown to, and good for a day: submitting the same form twice is one action, and a key
#: from anywhere else (an address, an old page, another staff member's form) is refused.
KEY_SALT = "operations.staff-action-key"
KEY_MAX_AGE = 24 * 3600


def request_key_issue(*, actor_id: int) -> str:
    """A new signed request key for a staff action form shown to ``actor_id``."""
    return signing.dumps({"k": uuid.uuid4().hex, "a": actor_id}, salt=KEY_SALT)


class StaffActionForm(forms.Form):
    kind = forms.ChoiceField(label=_("action"), choices=StaffAction.Kind.choices)
    player = forms.CharField(label=_("player (user name)"), required=False, max_length=150)
    table = forms.ModelChoiceField(label=_("table"), queryset=Table.objects.order_by("-id"), required=False)
    amount = forms.IntegerField(label=_("amount (minor units)"), required=False, min_value=1, max_value=AMOUNT_MAX)
    reason = forms.CharField(label=_("reason"), max_length=500, widget=forms.Textarea(attrs={"rows": 2}))
    request_key = forms.CharField(widget=forms.HiddenInput, max_length=300)

    def __init__(self, *args: Any, actor_id: int, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.actor_id = actor_id

    def clean_request_key(self) -> str:
        """The key the server issued in this form (its random part), or a form error."""
        try:
            issued = signing.loads(self.cleaned_data["request_key"], salt=KEY_SALT, max_age=KEY_MAX_AGE)
        except signing.BadSignature:
            issued = None
        if not isinstance(issued, dict) or issued.get("a") != self.actor_id or not isinstance(issued.get("k"), str):
            raise forms.ValidationError(
                _("This form has expired or was not issued to you: reload the page and fill it in again."))
        return issued["k"]

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
