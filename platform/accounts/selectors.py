"""Reads of the accounts app: the log-in lock of a username, and the accounts linked to another
by their sign-up footprints."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from importlib import import_module
from typing import Any

from django.conf import settings
from django.contrib.auth import SESSION_KEY
from django.contrib.auth.models import Group
from django.contrib.sessions.models import Session
from django.db import connection
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import Footprint, LoginThrottle, User
from accounts.names import name_key
from kernel.client_ip import UNKNOWN


def login_username_locked_until(*, username: str, now: datetime) -> datetime | None:
    """When the per-username lock of ``username`` ends, or ``None`` if it is not locked."""
    until = (
        LoginThrottle.objects.filter(username_key=name_key(username)[:150], locked_until__gt=now)
        .values_list("locked_until", flat=True)
        .first()
    )
    return until


@dataclass(frozen=True)
class Linked:
    """Another account sharing a sign-up browser or address, and whether it may play."""

    user: User
    same_browser: bool
    same_address: bool
    excluded_until: datetime | None

    @property
    def banned(self) -> bool:
        return not self.user.is_active

    def excluded(self, now: datetime) -> bool:
        return self.excluded_until is not None and self.excluded_until > now

    def restricted(self, now: datetime) -> bool:
        """Banned or self-excluded at ``now``: a new account linked to it gets no welcome coins."""
        return self.banned or self.excluded(now)

    def why(self, now: datetime) -> str:
        """Why the accounts are linked, and what the other one is, for staff."""
        reasons = [text for flag, text in ((self.same_browser, _("same browser")),
                                           (self.same_address, _("same address"))) if flag]
        if self.banned:
            reasons.append(_("banned"))
        if self.excluded(now):
            reasons.append(_("self-excluded"))
        return ", ".join(reasons)


def footprints_linked(*, address: str, browser: str, at: datetime, exclude_user_id: int | None = None) -> list[Linked]:
    """The accounts signed up in ``browser`` (ever) or from ``address`` (within
    ``LINK_ADDRESS_DAYS`` of ``at``), oldest first."""
    days = timedelta(days=settings.LINK_ADDRESS_DAYS)
    match = Q(address=address, created_at__gte=at - days, created_at__lte=at + days) if address != UNKNOWN else Q()
    if browser:
        match = match | Q(browser=browser) if match else Q(browser=browser)
    if not match:
        return []
    rows = Footprint.objects.filter(match).select_related("user", "user__play_limits").order_by("created_at", "pk")
    if exclude_user_id is not None:
        rows = rows.exclude(user_id=exclude_user_id)
    return [
        Linked(user=row.user, same_browser=bool(browser) and row.browser == browser,
               same_address=row.address == address and address != UNKNOWN,
               excluded_until=_excluded_until(row.user))
        for row in rows
    ]


def _excluded_until(user: User) -> datetime | None:
    limits = getattr(user, "play_limits", None)
    return limits.excluded_until if limits is not None else None


def accounts_linked(*, user: User) -> list[Linked]:
    """The accounts linked to ``user`` by its sign-up footprint (none without one)."""
    footprint = Footprint.objects.filter(user=user).first()
    if footprint is None:
        return []
    return footprints_linked(address=footprint.address, browser=footprint.browser, at=footprint.created_at,
                             exclude_user_id=user.pk)


#: What ``account_standing`` answers: the account may sit, is banned, or is staff (an auditor
#: among them) without the player role.
STANDING_OK, STANDING_BANNED, STANDING_STAFF = "ok", "banned", "staff"


def account_standing(*, user_id: int) -> str:
    """Whether the account may sit at a table, read fresh in one statement (a socket's user
    object is the account as it was when the socket opened): not when banned, nor when staff
    (auditors are staff) unless also in the players group (``settings.PLAYERS_GROUP``)."""
    return account_standing_and(user_id=user_id)[0]


#: A yes-or-no question about the account ``u`` asked in the standing's statement: SQL that
#: both databases run (``u.id`` is the account's id) and its parameters.
AlsoAsked = tuple[str, list[Any]]

#: The session engines that keep sessions in the database, where a session's row is asked in SQL.
_SESSIONS_IN_DATABASE = frozenset({"django.contrib.sessions.backends.db", "django.contrib.sessions.backends.cached_db"})


def session_alive(session_key: str | None, user_id: int) -> AlsoAsked | None:
    """Whether the session a request came through still signs ``user_id`` in, asked in the
    standing's statement (:func:`account_standing_and`). Kept in the database, a log-out flushes
    the session and a log-in as someone else cycles its key, both deleting the row, so the row's
    existence is the answer; another engine's session is read and its user compared, and the
    answer goes in as a parameter. None: nothing to ask (a request that came through no session)."""
    if session_key is None:
        return None
    if settings.SESSION_ENGINE in _SESSIONS_IN_DATABASE:
        return (f"EXISTS (SELECT 1 FROM {Session._meta.db_table} s "  # noqa: S608
                "WHERE s.session_key = %s AND s.expire_date > %s)", [session_key, timezone.now()])
    held = bool(session_key) and str(
        import_module(settings.SESSION_ENGINE).SessionStore(session_key).get(SESSION_KEY, "")) == str(user_id)
    return "%s", [held]


def account_standing_and(*, user_id: int, also: Sequence[AlsoAsked | None] = ()) -> tuple[str, list[bool]]:
    """:func:`account_standing`, and the yes-or-no questions ``also`` asks of the account, in the
    same statement (a question that is None answers yes): a private room's pass
    (``tables.rooms.room_pass_held``) and the request's session (:func:`session_alive`) are asked
    with the standing a join reads anyway. Every join and top-up reads it under the table's lock,
    so it is SQL, not built by the ORM (0.8 ms of CPU a call there)."""
    asked = [a for a in also if a is not None]
    columns = "".join(f", {sql}" for sql, _params in asked)
    member = User.groups.through
    sql = (
        f"SELECT u.is_active, u.is_staff, u.is_superuser, EXISTS (SELECT 1 FROM {member._meta.db_table} m "  # noqa: S608
        f"JOIN {Group._meta.db_table} g ON g.id = m.group_id WHERE m.user_id = u.id AND g.name = %s){columns} "
        f"FROM {User._meta.db_table} u WHERE u.id = %s"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [settings.PLAYERS_GROUP, *(p for _sql, params in asked for p in params), user_id])
        row = cursor.fetchone()
    answers = iter(bool(v) for v in (row[4:] if row is not None else [False] * len(asked)))
    replies = [True if a is None else next(answers) for a in also]
    if row is None or not row[0]:
        return STANDING_BANNED, replies
    if (row[1] or row[2]) and not row[3]:
        return STANDING_STAFF, replies
    return STANDING_OK, replies
