from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from disputes.models import Dispute
from disputes.services import MAX_TEXT


class DisputeOpenForm(forms.Form):
    category = forms.ChoiceField(label=_("category"), choices=Dispute.Category.choices)
    text = forms.CharField(label=_("what happened"), widget=forms.Textarea(attrs={"rows": 6}), max_length=MAX_TEXT)
