"""Staff edits on other apps' admin pages that the staff trail records (docs/OPERATIONS.md
"Staff trail"), where those apps cannot reach the trail themselves: the welcome coins (the
wallet imports no other app) take a reason and are recorded with the old and new amount."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from operations.models import StaffAction
from operations.trail import staff_act
from wallet.admin import WelcomeGrantAdmin
from wallet.forms import WelcomeGrantForm
from wallet.models import WelcomeGrant


class WelcomeGrantReasonForm(WelcomeGrantForm):
    staff_reason = forms.CharField(label=_("reason for this edit"), max_length=500,
                                   widget=forms.Textarea(attrs={"rows": 2}))


class WelcomeGrantTrailAdmin(WelcomeGrantAdmin):
    """The wallet's welcome-coins page, each edit recorded in the staff trail with its reason."""

    form = WelcomeGrantReasonForm

    def save_model(self, request: HttpRequest, obj: WelcomeGrant, form: Any, change: bool) -> None:
        actor = request.user
        if not isinstance(actor, User):  # never: the admin site lets in signed-in staff only
            raise PermissionDenied
        before = WelcomeGrant.objects.filter(pk=obj.pk).values_list("amount", flat=True).first()
        super().save_model(request, obj, form, change)
        staff_act(actor=actor, kind=StaffAction.Kind.WELCOME, reason=form.cleaned_data["staff_reason"],
                  subject_type="welcome_grant", subject_id=obj.pk, before={"amount": before},
                  after={"amount": obj.amount})


admin.site.unregister(WelcomeGrant)
admin.site.register(WelcomeGrant, WelcomeGrantTrailAdmin)
