"""The daily bonus's terms in coins (admin), stored in minor units."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from rewards.models import DailyBonus
from wallet.forms import CoinsField
from wallet.money import format_coins


class DailyBonusForm(forms.ModelForm[DailyBonus]):
    """Amount and floor in coins (``3000.00``); an amount of 0 switches the bonus off."""

    amount = CoinsField(label=_("daily bonus"),
                        help_text=_("Given once a day to a player short of coins; 0 gives nothing."))
    floor = CoinsField(label=_("floor"),
                       help_text=_("A player may claim while their wallet and table money hold less than this."))

    class Meta:
        model = DailyBonus
        fields = ("amount", "floor")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if not self.is_bound:
            self.initial["amount"] = format_coins(self.instance.amount)
            self.initial["floor"] = format_coins(self.instance.floor)

    def _coins(self, name: str) -> int:
        value = self.cleaned_data.get(name)
        if value is None or value < 0:
            raise forms.ValidationError(_("Enter 0 or a positive number of coins."))
        return int(value)

    def clean_amount(self) -> int:
        return self._coins("amount")

    def clean_floor(self) -> int:
        return self._coins("floor")
