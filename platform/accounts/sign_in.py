"""Logging in and out: Django's views, with two differences.

- Logging in to a banned (deactivated) account with its correct password says the account is
  banned, not that the password is wrong; a wrong password gets the usual answer, so nobody
  learns from it whether an account exists or is banned. The attempt still counts as a failed
  log-in (django-axes and the per-username throttle hear of it from ``authenticate``).
- Logging out, from any of the player's sessions, stops the player's play at once: every seat
  left, every open socket told and closed (``games.services.standing.player_stop``). Django
  admin's own log-out (``/admin/logout/``, :func:`admin_sign_out`) does the same, so a staff
  member who also plays leaves no seat behind whichever button they use.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.contrib.auth.forms import AuthenticationForm
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext as _

from accounts.models import User
from games.services.standing import player_stop


class SignInForm(AuthenticationForm):
    def clean(self) -> dict[str, Any]:
        try:
            return super().clean()
        except ValidationError:
            if self._banned_with_its_password():
                raise ValidationError(_("This account is banned."), code="banned") from None
            raise

    def _banned_with_its_password(self) -> bool:
        username, password = self.cleaned_data.get("username"), self.cleaned_data.get("password")
        if not username or not password:
            return False
        try:
            user = User._default_manager.get_by_natural_key(username)
        except User.DoesNotExist:
            return False
        return not user.is_active and user.check_password(password)


class SignInView(auth_views.LoginView):
    form_class = SignInForm
    redirect_authenticated_user = True


class SignOutView(auth_views.LogoutView):
    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        user = request.user if request.user.is_authenticated else None  # read before the session goes
        response = super().post(request, *args, **kwargs)
        _stop_if_signed_out(request, user)
        return response


def admin_sign_out(request: HttpRequest) -> HttpResponse:
    """``/admin/logout/``: the admin site's own log-out view and page, then the same stop as
    :class:`SignOutView` once the session is gone (staff only reach it; a GET logs nobody out)."""
    user = request.user if request.user.is_authenticated else None  # read before the session goes
    response = admin.site.admin_view(admin.site.logout)(request)
    _stop_if_signed_out(request, user)
    return response


def _stop_if_signed_out(request: HttpRequest, user: object) -> None:
    """Stop ``user``'s play if the request signed them out (``request.user`` is anonymous after it)."""
    if isinstance(user, User) and not request.user.is_authenticated:
        player_stop(user=user, reason="logged_out")
