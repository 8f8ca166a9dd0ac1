"""Forms: the statement filters (players), coin amounts and the welcome coins (admin)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

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
