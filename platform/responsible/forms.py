from __future__ import annotations

from decimal import Decimal

from django import forms
from django.utils.translation import gettext_lazy as _

from responsible.services import COOL_OFF_PERIODS, EXCLUSION_PERIODS

PERIOD_LABELS = {"1d": _("1 day"), "7d": _("7 days"), "30d": _("30 days"), "6m": _("6 months")}
COOL_OFF_LABELS = {"1h": _("1 hour"), "6h": _("6 hours"), "24h": _("24 hours")}


class LimitsForm(forms.Form):
    """Loss limits in whole coins (empty: no limit), converted to minor units by :meth:`minor`."""

    daily = forms.DecimalField(label=_("Daily loss limit (coins)"), required=False, min_value=Decimal("0.01"),
                               decimal_places=2, max_digits=12)
    weekly = forms.DecimalField(label=_("Weekly loss limit (coins)"), required=False, min_value=Decimal("0.01"),
                                decimal_places=2, max_digits=12)
    reminder_minutes = forms.IntegerField(label=_("Session reminder (minutes)"), required=False, min_value=1,
                                          max_value=24 * 60)

    def minor(self, name: str) -> int | None:
        value = self.cleaned_data.get(name)
        return None if value is None else int(value * 100)


class ExclusionForm(forms.Form):
    period = forms.ChoiceField(label=_("Exclude me from play for"),
                               choices=[(k, PERIOD_LABELS[k]) for k in EXCLUSION_PERIODS])
    confirm = forms.BooleanField(label=_("I understand this cannot be lifted early."))


class CoolOffForm(forms.Form):
    cool_off = forms.ChoiceField(label=_("Take a break from play for"),
                                 choices=[(k, COOL_OFF_LABELS[k]) for k in COOL_OFF_PERIODS])
