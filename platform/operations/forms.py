from __future__ import annotations

import uuid
from typing import Any

from django import forms
from django.core import signing
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from operations.four_eyes import act_amount_check
from operations.models import StaffAction
from tables.models import Table
from wallet.forms import CoinsField

#: The actions on a player's coins: an amount, within the cap (``operations.four_eyes``).
COIN_KINDS = (StaffAction.Kind.GRANT, StaffAction.Kind.ADJUST)
#: The actions the staff action form takes (the other kinds are recorded from their own pages).
FORM_KINDS = (StaffAction.Kind.GRANT, StaffAction.Kind.ADJUST, StaffAction.Kind.TABLE_CORRECT,
              StaffAction.Kind.TABLE_CLOSE, StaffAction.Kind.BAN, StaffAction.Kind.UNBAN)

#: A staff action's request key is issued by the server in the form, signed for the staff member
#: it was shown to, and good for a day: submitting the same form twice is one action, and a key
#: from anywhere else (an address, an old page, another staff member's form) is refused.
KEY_SALT = "operations.staff-action-key"
KEY_MAX_AGE = 24 * 3600


def request_key_issue(*, actor_id: int) -> str:
    """A new signed request key for a staff action form shown to ``actor_id``."""
    return signing.dumps({"k": uuid.uuid4().hex, "a": actor_id}, salt=KEY_SALT)


class ActCoinsField(CoinsField):
    """Coins for one staff act: any amount past the cap (however many digits) says so."""

    def to_python(self, value: Any) -> int | None:
        text = str(value or "").strip().lstrip("+-").split(".")[0]
        if text.isascii() and text.isdigit() and len(text) > 15:
            act_amount_check(amount=10 ** len(text))  # raises: more than the cap
        return super().to_python(value)


class StaffActionForm(forms.Form):
    kind = forms.ChoiceField(label=_("action"), choices=[(k, StaffAction.Kind(k).label) for k in FORM_KINDS])
    player = forms.CharField(label=_("player (user name)"), required=False, max_length=150)
    table = forms.ModelChoiceField(label=_("table"), queryset=Table.objects.order_by("-id"), required=False)
    amount = ActCoinsField(label=_("amount in coins"), required=False,
                        help_text=_("An adjustment below zero takes coins back."))
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
        if kind in (*COIN_KINDS, StaffAction.Kind.BAN, StaffAction.Kind.UNBAN):
            user = User.objects.filter(username=data.get("player") or "").first()
            if user is None:
                self.add_error("player", _("No such player."))
            data["user"] = user
            if kind in COIN_KINDS and "amount" not in self.errors:
                try:
                    act_amount_check(amount=data.get("amount"), signed=kind == StaffAction.Kind.ADJUST)
                except forms.ValidationError as exc:
                    self.add_error("amount", exc)
        elif kind and data.get("table") is None:
            self.add_error("table", _("Choose a table."))
        return data
