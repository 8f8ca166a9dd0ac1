"""Logging in and out: Django's views, with two differences.

- Logging in to a banned (deactivated) account with its correct password says the account is
  banned, not that the password is wrong; a wrong password gets the usual answer, so nobody
  learns from it whether an account exists or is banned. The attempt still counts as a failed
  log-in (django-axes and the per-username throttle hear of it from ``authenticate``).
- Logging out, from any of the player's sessions, stops the player's play at once: every seat
  left, every open socket told and closed (``games.services.standing.player_stop``).
"""

from __future__ import annotations

from typing import Any

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
        if isinstance(user, User):
            player_stop(user=user, reason="logged_out")
        return response
