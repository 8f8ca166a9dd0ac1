"""Forms: the statement filters (players), the grant/adjust form and the welcome coins (admin)."""

from __future__ import annotations

import uuid
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from wallet.models import TransactionKind, WelcomeGrant
from wallet.money import format_coins, parse_coins


class StatementFilterForm(forms.Form):
    kind = forms.ChoiceField(label=_("kind"), required=False, choices=[("", _("all kinds")), *TransactionKind.choices])
    since = forms.DateField(label=_("from"), required=False, widget=forms.DateInput(attrs={"type": "date"}))
    until = forms.DateField(label=_("until"), required=False, widget=forms.DateInput(attrs={"type": "date"}))

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("since") and data.get("until") and data["since"] > data["until"]:
            raise forms.ValidationError(_("The start date is after the end date."))
        return data


class CoinsField(forms.Field):
    """Coins with at most two decimals (``12.50``), cleaned to integer minor units."""

    widget = forms.TextInput(attrs={"inputmode": "decimal", "maxlength": 20})

    def to_python(self, value: Any) -> int | None:
        text = str(value or "").strip()
        if not text:
            return None
        try:
            return parse_coins(text)
        except ValueError:
            raise forms.ValidationError(_("Enter coins with at most two decimals, e.g. 12.50.")) from None


class GrantForm(forms.Form):
    GRANT, ADJUST = "grant", "adjust"

    username = forms.CharField(label=_("player"), max_length=150)
    operation = forms.ChoiceField(
        label=_("operation"),
        choices=[(GRANT, _("grant new coins")), (ADJUST, _("adjust (negative takes coins back)"))],
    )
    amount = CoinsField(label=_("amount in coins"))
    reason = forms.CharField(label=_("reason"), max_length=500)
    # Generated when the form is shown: submitting the same form twice posts once.
    idempotency_key = forms.CharField(widget=forms.HiddenInput, max_length=200)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if not self.is_bound:
            self.initial.setdefault("idempotency_key", f"admin:{uuid.uuid4()}")

    def clean_username(self) -> User:
        user = User.objects.filter(username=self.cleaned_data["username"]).first()
        if user is None:
            raise forms.ValidationError(_("No player with this username."))
        return user

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        amount = data.get("amount")
        if amount is not None and (amount == 0 or (data.get("operation") == self.GRANT and amount < 0)):
            self.add_error("amount", _("A grant is a positive amount; an adjustment is not zero."))
        return data


class WelcomeGrantForm(forms.ModelForm[WelcomeGrant]):
    """The welcome coins in coins (``30.00``), stored in minor units; 0 switches them off."""

    amount = CoinsField(label=_("welcome coins"),
                        help_text=_("Given to every new player at sign-up; 0 gives nothing."))

    class Meta:
        model = WelcomeGrant
        fields = ("amount",)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if not self.is_bound:
            self.initial["amount"] = format_coins(self.instance.amount)

    def clean_amount(self) -> int:
        amount = self.cleaned_data.get("amount")
        if amount is None or amount < 0:
            raise forms.ValidationError(_("Enter 0 or a positive number of coins."))
        return int(amount)
