"""Writes of the accounts app: the per-username log-in throttle (here) and sign-ups
(``accounts.services.signup``)."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction

from accounts.models import LoginThrottle
from accounts.names import name_key


def _window() -> timedelta:
    return timedelta(minutes=settings.LOGIN_USERNAME_WINDOW_MINUTES)


def _cooloff() -> timedelta:
    return timedelta(minutes=settings.LOGIN_USERNAME_COOLOFF_MINUTES)


def login_failure_record(*, username: str, now: datetime) -> datetime | None:
    """Count one failed log-in of ``username`` (from any address); returns when its lock ends if
    this failure locked it.

    1. Lock the username's row (created on its first failure).
    2. While it is locked, nothing counts (the attempt was refused before any password check).
    3. A window older than ``LOGIN_USERNAME_WINDOW_MINUTES`` starts again at this failure.
    4. The ``LOGIN_USERNAME_FAILURE_LIMIT``-th failure of a window locks the username for
       ``LOGIN_USERNAME_COOLOFF_MINUTES``; the next window starts when the lock ends.
    """
    key = name_key(username)[:150]
    with transaction.atomic():
        throttle, _ = LoginThrottle.objects.select_for_update().get_or_create(
            username_key=key, defaults={"window_started": now}
        )
        if throttle.locked_until is not None and throttle.locked_until > now:
            return None
        if throttle.locked_until is not None or now - throttle.window_started >= _window():
            throttle.window_started, throttle.failures, throttle.locked_until = now, 0, None
        throttle.failures += 1
        locked = throttle.failures >= settings.LOGIN_USERNAME_FAILURE_LIMIT
        if locked:
            throttle.locked_until = now + _cooloff()
        throttle.save()
        return throttle.locked_until if locked else None


def login_throttle_reset(*, username: str) -> None:
    """A successful log-in (possible only while the username is not locked) clears its failures."""
    LoginThrottle.objects.filter(username_key=name_key(username)[:150]).delete()
