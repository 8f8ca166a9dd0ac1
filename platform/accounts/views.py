"""Account pages: sign up, profile, language switch, the log-in lock-out page. Log in/out and
password change are Django's."""

from __future__ import annotations

import math
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.mixins import LoginRequiredMixin
from django.db import IntegrityError, transaction
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect, JsonResponse
from django.shortcuts import render
from django.urls import reverse_lazy
from django.utils import timezone, translation
from django.utils.translation import check_for_language
from django.utils.translation import gettext as _
from django.views.generic import CreateView, TemplateView, UpdateView
from django.views.i18n import set_language as django_set_language

from accounts.browser import browser_of
from accounts.errors import SignUpRefused
from accounts.forms import NAME_TAKEN, ProfileForm, SignUpForm, name_taken
from accounts.login_limits import lock_release
from accounts.models import Footprint, User
from accounts.requests import AuthenticatedHttpRequest
from accounts.services.signup import signup_check, signup_welcome
from kernel.client_ip import get_client_ip
from wallet.money import format_coins
from wallet.selectors import wallet_balance


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
        """The account, its footprint and its welcome coins (docs/WALLET.md "Welcome coins") in one
        transaction, within the sign-up limits (docs/SECURITY.md "Sign-ups"); the player is
        signed in and keeps the language they chose. A limit, or a name another sign-up took a
        moment before, is an error on the form and nothing is made."""
        address, browser, now = get_client_ip(self.request), browser_of(self.request), timezone.now()
        user = self.object = form.save(commit=False)  # the password hashed before sign-ups queue
        try:
            with transaction.atomic():
                signup_check(address=address, browser=browser, now=now)
                user.save()
                footprint = signup_welcome(user=user, address=address, browser=browser, now=now)
        except SignUpRefused as refused:
            form.add_error(None, refused.localized())
            return self.form_invalid(form)
        except IntegrityError as error:
            return self._name_taken(form, error)
        response = HttpResponseRedirect(self.get_success_url())
        login(self.request, user, backend="django.contrib.auth.backends.ModelBackend")
        with translation.override(user.language):
            messages.success(self.request, _welcome_message(footprint, user))
        response.set_cookie(settings.LANGUAGE_COOKIE_NAME, user.language, samesite="Lax")
        return response

    def _name_taken(self, form: SignUpForm, error: IntegrityError) -> HttpResponse:
        """Another sign-up took the username or the name in the moment between this form's
        checks and its save: the database refused it (unique columns), and the form says so."""
        username, display_name = form.cleaned_data.get("username", ""), form.cleaned_data.get("display_name", "")
        if User.objects.filter(username=username).exists():
            form.add_error("username", form.instance.unique_error_message(User, ("username",)))
        elif name_taken(display_name or username):
            form.add_error("display_name" if display_name else "username", NAME_TAKEN)
        else:
            raise error  # not a taken name: the database refused something else
        return self.form_invalid(form)


def _welcome_message(footprint: Footprint, user: User) -> str:
    if footprint.welcome == Footprint.Welcome.GRANTED:
        return _("Welcome! Your account is ready, with %(coins)s coins to play with.") % {
            "coins": format_coins(wallet_balance(user=user), grouping=True)}
    if footprint.welcome == Footprint.Welcome.OFF:
        return _("Welcome! Your account is ready.")
    if footprint.welcome == Footprint.Welcome.LINKED:
        # Not why: the linked account may be another person's on a shared network.
        return _("Welcome! Your account is ready. No welcome coins come with it; our staff can tell you why.")
    return _("Welcome! Your account is ready. It gets no welcome coins: they are given to a limited number "
             "of new accounts per browser and per network.")


class ProfileView(LoginRequiredMixin, UpdateView):
    form_class = ProfileForm
    template_name = "accounts/profile.html"
    success_url = reverse_lazy("profile")
    request: AuthenticatedHttpRequest

    def get_object(self, queryset: Any = None) -> User:
        return self.request.user

    def form_valid(self, form: ProfileForm) -> HttpResponse:
        try:
            with transaction.atomic():
                response = super().form_valid(form)
        except IntegrityError:  # another player took the name since the form's check
            if not name_taken(form.cleaned_data.get("display_name") or form.instance.username,
                              exclude_pk=form.instance.pk):
                raise
            form.add_error("display_name", NAME_TAKEN)
            return self.form_invalid(form)
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
