"""The player's page: loss limits, the session reminder, self-exclusion and their history."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.contrib import messages
from django.contrib.auth.mixins import LoginRequiredMixin
from django.http import HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views import View

from accounts.requests import AuthenticatedHttpRequest
from games.services.standing import player_stop
from kernel.errors import AppError
from responsible.forms import CoolOffForm, ExclusionForm, LimitsForm
from responsible.models import LimitChange, Setting
from responsible.selectors import DAY, WEEK, limit_history, limits_current, table_loss
from responsible.services import cool_off_start, exclusion_start, limits_set


def _coins(minor: int | None) -> Decimal | None:
    return None if minor is None else (Decimal(minor) / 100).quantize(Decimal("0.01"))


def _shown(change: LimitChange, value: int | None) -> object:
    """A loss limit in coins, a reminder in minutes, as recorded."""
    if value is None or change.setting == Setting.REMINDER:
        return value
    return _coins(value)


class LimitsView(LoginRequiredMixin, View):
    request: AuthenticatedHttpRequest

    def get(self, request: AuthenticatedHttpRequest) -> HttpResponse:
        now = timezone.now()
        limits = limits_current(user=request.user, now=now)
        initial = {"daily": _coins(limits.daily), "weekly": _coins(limits.weekly),
                   "reminder_minutes": limits.reminder_minutes}
        return self._page(LimitsForm(initial=initial), ExclusionForm(), CoolOffForm())

    def post(self, request: AuthenticatedHttpRequest) -> HttpResponse:
        limits_form, exclusion_form, cool_off_form = LimitsForm(), ExclusionForm(), CoolOffForm()
        try:
            if "exclude" in request.POST:
                exclusion_form = ExclusionForm(request.POST)
                if exclusion_form.is_valid():
                    exclusion_start(user=request.user, period=exclusion_form.cleaned_data["period"])
                    # after the exclusion commits: a deal in between already deals the player out
                    player_stop(user=request.user, reason="self_excluded")
                    messages.success(request, _("Your self-exclusion has started."))
                    return HttpResponseRedirect(reverse("responsible-limits"))
            elif "cool_off" in request.POST:
                cool_off_form = CoolOffForm(request.POST)
                if cool_off_form.is_valid():
                    cool_off_start(user=request.user, period=cool_off_form.cleaned_data["cool_off"])
                    player_stop(user=request.user, reason="cooling_off")
                    messages.success(request, _("Your break from play has started."))
                    return HttpResponseRedirect(reverse("responsible-limits"))
            else:
                limits_form = LimitsForm(request.POST)
                if limits_form.is_valid():
                    limits_set(user=request.user, daily=limits_form.minor("daily"),
                               weekly=limits_form.minor("weekly"),
                               reminder_minutes=limits_form.cleaned_data.get("reminder_minutes"))
                    messages.success(request, _("Your limits are saved."))
                    return HttpResponseRedirect(reverse("responsible-limits"))
        except AppError as exc:
            messages.error(request, exc.localized())
        return self._page(limits_form, exclusion_form, cool_off_form)

    def _page(self, limits_form: LimitsForm, exclusion_form: ExclusionForm, cool_off_form: CoolOffForm) -> HttpResponse:
        user, now = self.request.user, timezone.now()
        limits = limits_current(user=user, now=now)
        context: dict[str, Any] = {
            "limits": limits, "limits_form": limits_form, "exclusion_form": exclusion_form,
            "cool_off_form": cool_off_form, "excluded": limits.excluded(now), "cooling": limits.cooling(now),
            "daily": _coins(limits.daily), "weekly": _coins(limits.weekly),
            "lost_day": _coins(table_loss(user=user, since=now - DAY)),
            "lost_week": _coins(table_loss(user=user, since=now - WEEK)),
            "pending": [(c.get_setting_display(), _coins(c.value), c.applies_at) for c in limits.pending.values()],
            "history": [(c, *(_shown(c, v) for v in (c.old_value, c.new_value))) for c in limit_history(user=user)],
        }
        return render(self.request, "responsible/limits.html", context)
