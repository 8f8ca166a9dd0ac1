"""The daily bonus's claim: a form on the wallet page and in the lobby posts here, and the
player goes back where they were with what happened."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.mixins import LoginRequiredMixin
from django.http import HttpResponse, HttpResponseRedirect
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views import View

from accounts.requests import AuthenticatedHttpRequest
from rewards.errors import BonusRefused
from rewards.services import daily_bonus_claim
from wallet.money import format_coins


def back_to(request: AuthenticatedHttpRequest) -> str:
    """The page the form was on (``next``, this site's only), else the wallet."""
    target = request.POST.get("next", "")
    if url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()}, require_https=request.is_secure()):
        return target
    return reverse("wallet:wallet")


class DailyBonusClaimView(LoginRequiredMixin, View):
    http_method_names = ["post"]

    def post(self, request: AuthenticatedHttpRequest) -> HttpResponse:
        try:
            txn = daily_bonus_claim(user=request.user)
        except BonusRefused as refusal:
            messages.error(request, refusal.localized())
        else:
            coins = sum(e.amount for e in txn.entries.all() if e.account_id is not None)
            messages.success(request, _("Daily bonus claimed: %(coins)s coins are in your wallet.")
                             % {"coins": format_coins(coins, grouping=True)})
        return HttpResponseRedirect(back_to(request))
