"""Reads of the accounts app."""

from __future__ import annotations

from datetime import datetime

from accounts.models import LoginThrottle, User
from accounts.names import name_key


def login_username_locked_until(*, username: str, now: datetime) -> datetime | None:
    """When the per-username lock of ``username`` ends, or ``None`` if it is not locked."""
    until = (
        LoginThrottle.objects.filter(username_key=name_key(username)[:150], locked_until__gt=now)
        .values_list("locked_until", flat=True)
        .first()
    )
    return until


def account_active(*, user_id: int) -> bool:
    """Whether the account may play (not banned), read fresh: a socket's user object is the
    account as it was when the socket opened."""
    return User.objects.filter(pk=user_id, is_active=True).exists()
