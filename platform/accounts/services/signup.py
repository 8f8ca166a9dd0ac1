"""Sign-ups: the limits per address and per browser, the account's footprint, and whether its
welcome coins are given (docs/SECURITY.md "Sign-ups").

A sign-up is one transaction in the sign-up view: ``signup_check`` (before the account is
saved), then ``signup_welcome`` (after). Sign-ups run one at a time from the check to the
commit — a PostgreSQL transaction-level advisory lock, SQLite's IMMEDIATE transactions — so a
burst from one address cannot all pass a count taken before any of them was written.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.db import connection
from django.utils.translation import gettext as _

from accounts.errors import SignUpRefused
from accounts.models import Footprint, User
from accounts.selectors import footprints_linked
from wallet.services import wallet_welcome

#: The advisory lock every sign-up takes (an arbitrary constant, unique in the project).
SIGNUP_LOCK = 0x5167_6E55


def _count(*, since: datetime, address: str, browser: str, granted: bool = False) -> tuple[int, int]:
    rows = Footprint.objects.filter(created_at__gte=since)
    if granted:
        rows = rows.filter(welcome=Footprint.Welcome.GRANTED)
    by_browser = rows.filter(browser=browser).count() if browser else 0
    return rows.filter(address=address).count(), by_browser


def signup_check(*, address: str, browser: str, now: datetime) -> None:
    """Refuse a sign-up over its limits; called in the sign-up's transaction before the account
    is saved.

    1. Wait for the sign-ups before this one to commit (PostgreSQL: the advisory lock).
    2. Refuse when the address made ``SIGNUP_PER_ADDRESS`` accounts, or the browser
       ``SIGNUP_PER_BROWSER``, within the last ``SIGNUP_WINDOW_HOURS``.
    """
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [SIGNUP_LOCK])
    hours = settings.SIGNUP_WINDOW_HOURS
    by_address, by_browser = _count(since=now - timedelta(hours=hours), address=address, browser=browser)
    if by_address >= settings.SIGNUP_PER_ADDRESS:
        raise SignUpRefused(
            _("Too many accounts were made from your network in the last %(hours)s hours. "
              "Please try again later, or log in to an account you have.") % {"hours": hours},
            code="signup_address_limit")
    if by_browser >= settings.SIGNUP_PER_BROWSER:
        raise SignUpRefused(
            _("Too many accounts were made in this browser in the last %(hours)s hours. "
              "Please try again later, or log in to an account you have.") % {"hours": hours},
            code="signup_browser_limit")


def _welcome_refusal(*, user: User, address: str, browser: str, now: datetime) -> str | None:
    """Why the new account gets no welcome coins (a ``Footprint.Welcome`` value), or None."""
    linked = footprints_linked(address=address, browser=browser, at=now, exclude_user_id=user.pk)
    if any(link.restricted(now) for link in linked):
        return Footprint.Welcome.LINKED
    by_address, by_browser = _count(since=now - timedelta(days=settings.WELCOME_WINDOW_DAYS), address=address,
                                    browser=browser, granted=True)
    if by_address >= settings.WELCOME_PER_ADDRESS:
        return Footprint.Welcome.ADDRESS_LIMIT
    if by_browser >= settings.WELCOME_PER_BROWSER:
        return Footprint.Welcome.BROWSER_LIMIT
    return None


def signup_welcome(*, user: User, address: str, browser: str, now: datetime) -> Footprint:
    """Record the new account's footprint and give its welcome coins unless refused; called in
    the sign-up's transaction after ``signup_check`` and the account's save.

    1. No welcome coins when an account sharing the browser (or the address, within
       ``LINK_ADDRESS_DAYS``) is self-excluded or banned.
    2. None past ``WELCOME_PER_ADDRESS`` grants to the address, or ``WELCOME_PER_BROWSER`` to the
       browser, within ``WELCOME_WINDOW_DAYS``.
    3. Otherwise ``wallet_welcome`` posts them (``off`` where staff set the amount to 0).
    """
    refusal = _welcome_refusal(user=user, address=address, browser=browser, now=now)
    welcome = refusal or (Footprint.Welcome.GRANTED if wallet_welcome(user=user) else Footprint.Welcome.OFF)
    return Footprint.objects.create(user=user, address=address, browser=browser, welcome=welcome, created_at=now)
