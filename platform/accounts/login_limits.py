"""Log-in limiting: django-axes with a second, per-username limit.

- axes locks a (username, address) pair after ``AXES_FAILURE_LIMIT`` failures for
  ``AXES_COOLOFF_HOURS``; the address is ``kernel.client_ip.get_client_ip``.
- ``LoginLimitHandler`` adds a lock of the username alone, from every address together, after
  ``LOGIN_USERNAME_FAILURE_LIMIT`` failures in ``LOGIN_USERNAME_WINDOW_MINUTES``, for
  ``LOGIN_USERNAME_COOLOFF_MINUTES`` (``accounts.services.login_failure_record``).
- ``lock_release`` says when the later of the two ends, for the lock-out page.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from axes.handlers.database import AxesDatabaseHandler
from axes.helpers import get_client_username, get_cool_off, get_failure_limit
from axes.models import AccessAttempt
from django.db.models import Max, Sum
from django.http import HttpRequest
from django.utils import timezone

from accounts.selectors import login_username_locked_until
from accounts.services import login_failure_record, login_throttle_reset
from kernel.client_ip import get_client_ip


def _username(request: HttpRequest, credentials: dict[str, Any] | None) -> str:
    return str(get_client_username(request, credentials) or "")


class LoginLimitHandler(AxesDatabaseHandler):
    def is_locked(self, request: HttpRequest, credentials: dict[str, Any] | None = None) -> bool:
        if super().is_locked(request, credentials):
            return True
        username = _username(request, credentials)
        return bool(username) and login_username_locked_until(username=username, now=timezone.now()) is not None

    def user_login_failed(self, sender: Any, credentials: dict[str, Any], request: Any = None, **kwargs: Any) -> None:
        refused = bool(getattr(request, "axes_locked_out", False))  # locked before the password was checked
        super().user_login_failed(sender, credentials, request, **kwargs)
        username = _username(request, credentials) if request is not None else ""
        if refused or not username:
            return
        if login_failure_record(username=username, now=timezone.now()) is not None:
            request.axes_locked_out = True
            request.axes_credentials = credentials

    def user_logged_in(self, sender: Any, request: Any, user: Any, **kwargs: Any) -> None:
        super().user_logged_in(sender, request, user, **kwargs)
        login_throttle_reset(username=user.get_username())


def lock_release(request: HttpRequest, credentials: dict[str, Any] | None) -> datetime:
    """When the locks on this log-in (its username, and its username from its address) end."""
    now = timezone.now()
    username = _username(request, credentials)
    release = login_username_locked_until(username=username, now=now) or now
    cool_off = get_cool_off(request)
    pair = AccessAttempt.objects.filter(username=username, ip_address=get_client_ip(request)).aggregate(
        failures=Sum("failures_since_start"), last=Max("attempt_time")
    )
    if cool_off and pair["last"] is not None and (pair["failures"] or 0) >= get_failure_limit(request, credentials):
        release = max(release, pair["last"] + cool_off)
    return max(release, now)
