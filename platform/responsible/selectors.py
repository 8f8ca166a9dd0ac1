"""Reads of responsible play: the limits in force, what is pending, the losses they count."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db.models import Sum
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from responsible.models import LimitChange, LimitRefusal, PendingChange, PlayLimits, Setting
from tables.models import Seat
from wallet.models import AccountKind, Entry, TransactionKind

DAY = timedelta(days=1)
WEEK = timedelta(days=7)


@dataclass(frozen=True)
class Limits:
    daily: int | None
    weekly: int | None
    reminder_minutes: int | None
    excluded_until: datetime | None
    cooling_until: datetime | None
    pending: dict[str, PendingChange]

    def excluded(self, now: datetime) -> bool:
        return self.excluded_until is not None and self.excluded_until > now

    def cooling(self, now: datetime) -> bool:
        return self.cooling_until is not None and self.cooling_until > now


def limits_current(*, user: User, now: datetime) -> Limits:
    """The values in force at ``now`` (a pending change whose time has come counts as applied)."""
    row = PlayLimits.objects.filter(user=user).first()
    values = {
        Setting.DAILY: row.daily_loss_limit if row else None,
        Setting.WEEKLY: row.weekly_loss_limit if row else None,
    }
    pending = {}
    for change in PendingChange.objects.filter(user=user):
        if change.applies_at <= now:
            values[Setting(change.setting)] = change.value
        else:
            pending[change.setting] = change
    return Limits(
        daily=values[Setting.DAILY], weekly=values[Setting.WEEKLY],
        reminder_minutes=row.reminder_minutes if row else None,
        excluded_until=row.excluded_until if row else None, cooling_until=row.cooling_until if row else None,
        pending=pending,
    )


def table_loss(*, user: User, since: datetime) -> int:
    """Net coins (minor units) the player put on tables since ``since``: buy-ins and top-ups
    from the wallet minus cash-outs back into it (negative when they took more away).

    Table money still on a table counts as lost until it is cashed out, so the buy-in being made
    is counted in full, and winnings cashed out in the window offset losses."""
    moved = Entry.objects.filter(
        account__kind=AccountKind.WALLET, account__user=user,
        transaction__kind__in=[TransactionKind.BUY_IN, TransactionKind.CASH_OUT],
        transaction__created_at__gte=since,
    ).aggregate(total=Sum("amount"))["total"]
    return -(moved or 0)


def limit_history(*, user: User) -> list[LimitChange]:
    return list(LimitChange.objects.filter(user=user)[:50])


def limit_refusals(*, user: User) -> list[LimitRefusal]:
    """The player's latest buy-ins and top-ups their own limits refused."""
    return list(LimitRefusal.objects.filter(user=user)[:50])


def session_started(*, user: User) -> datetime | None:
    """When the player's current session began: the earliest sitting down among the seats they
    hold now (``None`` when they hold none)."""
    return Seat.objects.filter(user=user).order_by("joined_at").values_list("joined_at", flat=True).first()


def play_barred(*, user_ids: list[int], now: datetime) -> dict[int, str]:
    """The players among ``user_ids`` who may not be dealt in, sit down or top up at ``now``, each
    with why (:func:`player_barred`). One query, read fresh."""
    users = User.objects.filter(pk__in=user_ids).select_related("play_limits")
    return {user.pk: reason for user in users if (reason := player_barred(user=user, now=now)) is not None}


def player_barred(*, user: User, now: datetime) -> str | None:
    """Why the player may not be dealt in, sit down or top up at ``now``: ``banned`` (the account
    deactivated), ``self_excluded`` or ``cooling_off``; None when they may. Reads the user as
    loaded, its limits too where they were loaded with it (the deal's seats bring both, fresh,
    in their one statement); a user object a connection has held since it opened is stale."""
    if not user.is_active:
        return "banned"
    limits = getattr(user, "play_limits", None)  # the reverse one-to-one: None where no row exists
    if limits is None:
        return None
    if limits.excluded_until is not None and limits.excluded_until > now:
        return "self_excluded"
    if limits.cooling_until is not None and limits.cooling_until > now:
        return "cooling_off"
    return None


def play_refusal(*, user: User, now: datetime) -> str | None:
    """Why the player may not sit down at ``now``, as one sentence in the active language (the
    same the table's buy-in refusal says), or None when they may: what the lobby's Play answers
    at once, before a table is picked. Reads the user and its limits fresh."""
    fresh = User.objects.select_related("play_limits").get(pk=user.pk)
    reason = player_barred(user=fresh, now=now)
    if reason == "banned":
        return _("This account is banned.")
    if reason == "self_excluded":
        until = timezone.localtime(fresh.play_limits.excluded_until).strftime("%Y-%m-%d %H:%M")
        return _("You have excluded yourself from play until %(until)s.") % {"until": until}
    if reason == "cooling_off":
        until = timezone.localtime(fresh.play_limits.cooling_until).strftime("%Y-%m-%d %H:%M")
        return _("You are taking a break from play until %(until)s.") % {"until": until}
    return None
