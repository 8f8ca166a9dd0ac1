"""Account pages: sign up, profile, language switch, the log-in lock-out page. Log in/out and
password change are Django's."""

from __future__ import annotations

import math
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.mixins import LoginRequiredMixin
from django.db import transaction
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.urls import reverse_lazy
from django.utils import timezone, translation
from django.utils.translation import check_for_language
from django.utils.translation import gettext as _
from django.views.generic import CreateView, TemplateView, UpdateView
from django.views.i18n import set_language as django_set_language

from accounts.forms import ProfileForm, SignUpForm
from accounts.login_limits import lock_release
from accounts.models import User
from accounts.requests import AuthenticatedHttpRequest
from wallet.money import format_coins
from wallet.selectors import wallet_balance
from wallet.services import wallet_welcome


class HomeView(TemplateView):
    template_name = "home.html"


class SignUpView(CreateView):
    form_class = SignUpForm
    template_name = "registration/signup.html"
    success_url = reverse_lazy("home")

    def get_initial(self) -> dict[str, Any]:
        """The language the page is in is the new account's language, unless the player picks another."""
        return {**super().get_initial(), "language": translation.get_language()}

    def form_valid(self, form: SignUpForm) -> HttpResponse:
        """The account and its welcome coins (docs/WALLET.md "Welcome coins") in one transaction;
        the player is signed in and keeps the language they chose."""
        with transaction.atomic():
            response = super().form_valid(form)
            user = form.instance
            welcome = wallet_welcome(user=user)
        login(self.request, user, backend="django.contrib.auth.backends.ModelBackend")
        with translation.override(user.language):
            if welcome is None:
                messages.success(self.request, _("Welcome! Your account is ready."))
            else:
                messages.success(self.request, _("Welcome! Your account is ready, with %(coins)s coins to play with.")
                                 % {"coins": format_coins(wallet_balance(user=user))})
        response.set_cookie(settings.LANGUAGE_COOKIE_NAME, user.language, samesite="Lax")
        return response


class ProfileView(LoginRequiredMixin, UpdateView):
    form_class = ProfileForm
    template_name = "accounts/profile.html"
    success_url = reverse_lazy("profile")
    request: AuthenticatedHttpRequest

    def get_object(self, queryset: Any = None) -> User:
        return self.request.user

    def form_valid(self, form: ProfileForm) -> HttpResponse:
        response = super().form_valid(form)
        response.set_cookie(settings.LANGUAGE_COOKIE_NAME, form.instance.language, samesite="Lax")
        messages.success(self.request, _("Profile saved."))
        return response


def set_language(request: HttpRequest) -> HttpResponse:
    """Django's set_language, and for a signed-in user also saved on the profile."""
    response = django_set_language(request)
    code = request.POST.get("language", "")
    if request.method == "POST" and request.user.is_authenticated and check_for_language(code):
        User.objects.filter(pk=request.user.pk).update(language=code)
    return response


def locked_out(request: HttpRequest, original_response: HttpResponse | None = None,
               credentials: dict[str, Any] | None = None) -> HttpResponse:
    """axes' lock-out response (``AXES_LOCKOUT_CALLABLE``): 429, when to retry, in the user's language."""
    retry_at = lock_release(request, credentials)
    seconds = max(1, math.ceil((retry_at - timezone.now()).total_seconds()))
    minutes = max(1, math.ceil(seconds / 60))
    message = _("Too many failed log-in attempts. Try again in %(minutes)s min.") % {"minutes": minutes}
    status = int(getattr(settings, "AXES_HTTP_RESPONSE_CODE", 429))
    response: HttpResponse
    if request.headers.get("x-requested-with") == "XMLHttpRequest" or request.path.startswith("/api/"):
        response = JsonResponse({"code": "login_locked", "detail": message, "retry_after": seconds}, status=status)
    else:
        context = {"code": "login_locked", "message": message, "minutes": minutes, "retry_at": retry_at}
        response = render(request, "registration/locked_out.html", context, status=status)
    response["Retry-After"] = str(seconds)
    return response
