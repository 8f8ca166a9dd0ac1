"""Writes of responsible play: a player's limits and self-exclusion, and the check every
buy-in and top-up makes (docs/RESPONSIBLE_PLAY.md).

Lowering a loss limit (or setting one where there was none) applies at once; raising or removing
it waits 24 hours as a :class:`PendingChange`. A self-exclusion can be made longer, never shorter.
Every change is kept as a :class:`LimitChange`.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from responsible.errors import LimitRefused, SettingRefused
from responsible.models import LimitChange, LimitRefusal, PendingChange, PlayLimits, Refusal, Setting
from responsible.selectors import DAY, WEEK, table_loss
from wallet.money import format_coins

RAISE_DELAY = timedelta(hours=24)
EXCLUSION_PERIODS = {"1d": timedelta(days=1), "7d": timedelta(days=7), "30d": timedelta(days=30),
                     "6m": timedelta(days=182)}
COOL_OFF_PERIODS = {"1h": timedelta(hours=1), "6h": timedelta(hours=6), "24h": timedelta(hours=24)}
_FIELDS = {Setting.DAILY: "daily_loss_limit", Setting.WEEKLY: "weekly_loss_limit"}


def _locked(user: User) -> PlayLimits:
    PlayLimits.objects.get_or_create(user=user)
    return PlayLimits.objects.select_for_update().get(user=user)


def _apply_due(row: PlayLimits, now: datetime) -> None:
    """Move the pending changes whose 24 hours are over into the row (the row is locked)."""
    due = list(PendingChange.objects.filter(user_id=row.user_id, applies_at__lte=now))
    for change in due:
        setattr(row, _FIELDS[Setting(change.setting)], change.value)
    if due:
        row.save()
        PendingChange.objects.filter(pk__in=[c.pk for c in due]).delete()


def _set_loss_limit(row: PlayLimits, setting: Setting, value: int | None, now: datetime) -> None:
    field = _FIELDS[setting]
    old = getattr(row, field)
    pending = PendingChange.objects.filter(user_id=row.user_id, setting=setting).first()
    if value == old:
        if pending is not None:  # asked back to what is in force: the wait is cancelled
            pending.delete()
            LimitChange.objects.create(user_id=row.user_id, setting=setting, old_value=old, new_value=value,
                                       applies_at=now, created_at=now)
        return
    if pending is not None and pending.value == value:
        return
    lower = value is not None and (old is None or value < old)
    applies_at = now if lower else now + RAISE_DELAY
    if lower:
        setattr(row, field, value)
        PendingChange.objects.filter(user_id=row.user_id, setting=setting).delete()
    else:
        PendingChange.objects.update_or_create(
            user_id=row.user_id, setting=setting, defaults={"value": value, "applies_at": applies_at}
        )
    LimitChange.objects.create(user_id=row.user_id, setting=setting, old_value=old, new_value=value,
                               applies_at=applies_at, created_at=now)


@transaction.atomic
def limits_set(*, user: User, daily: int | None, weekly: int | None, reminder_minutes: int | None) -> PlayLimits:
    """Set the loss limits (minor units, ``None`` for none) and the session reminder.

    1. Lock the player's limits row and apply what is due.
    2. Each loss limit: lower → at once; higher or removed → pending for 24 hours.
    3. The reminder applies at once (it only reminds). Each change is recorded.
    """
    now = timezone.now()
    row = _locked(user)
    _apply_due(row, now)
    for setting, value in ((Setting.DAILY, daily), (Setting.WEEKLY, weekly)):
        if value is not None and value <= 0:
            raise SettingRefused(_("A limit must be more than zero."))
        _set_loss_limit(row, setting, value, now)
    if reminder_minutes != row.reminder_minutes:
        LimitChange.objects.create(user=user, setting=Setting.REMINDER, old_value=row.reminder_minutes,
                                   new_value=reminder_minutes, applies_at=now, created_at=now)
        row.reminder_minutes = reminder_minutes
    row.updated_at = now
    row.save()
    return row


@transaction.atomic
def exclusion_start(*, user: User, period: str) -> datetime:
    """Exclude oneself from sitting and topping up for ``period`` (a key of ``EXCLUSION_PERIODS``).

    An exclusion already running is only ever lengthened, never shortened or lifted."""
    if period not in EXCLUSION_PERIODS:
        raise SettingRefused(_("Choose one of the periods offered."))
    return _break_start(user, Setting.EXCLUSION, "excluded_until", EXCLUSION_PERIODS[period],
                        _("You are already excluded until %(until)s; it cannot be shortened."))


@transaction.atomic
def cool_off_start(*, user: User, period: str) -> datetime:
    """Take a break from play of ``period`` (a key of ``COOL_OFF_PERIODS``): no sitting or topping
    up until it is over. Like an exclusion it is only ever lengthened, never shortened or lifted."""
    if period not in COOL_OFF_PERIODS:
        raise SettingRefused(_("Choose one of the periods offered."))
    return _break_start(user, Setting.COOL_OFF, "cooling_until", COOL_OFF_PERIODS[period],
                        _("You are already taking a break until %(until)s; it cannot be shortened."))


def _break_start(user: User, setting: Setting, field: str, period: timedelta, too_short: str) -> datetime:
    """Start (or lengthen) the break kept in ``field`` of the player's locked limits row."""
    now = timezone.now()
    row = _locked(user)
    until = now + period
    running = getattr(row, field)
    if running is not None and running >= until:
        raise SettingRefused(too_short % {"until": timezone.localtime(running).strftime("%Y-%m-%d %H:%M")})
    LimitChange.objects.create(user=user, setting=setting, until=until, applies_at=now, created_at=now)
    setattr(row, field, until)
    row.updated_at = now
    row.save(update_fields=[field, "updated_at"])
    return until


def stake_check(*, user: User, amount: int) -> None:
    """Refuse a buy-in or top-up of ``amount`` the player's own limits do not allow. Called inside
    the seating transaction, after the table lock:

    1. Lock the player's limits row (``SELECT … FOR UPDATE``): a second buy-in of the same player
       at another table waits here until the first commits, and then counts it.
    2. Refuse while self-excluded or cooling off.
    3. Refuse if the table loss of the last day (week), counting ``amount``, would exceed the limit.
    """
    now = timezone.now()
    row = PlayLimits.objects.select_for_update().filter(user=user).first()
    if row is None:
        return  # nothing set: nothing to check
    _apply_due(row, now)
    if row.excluded_until is not None and row.excluded_until > now:
        raise LimitRefused(
            _("You have excluded yourself from play until %(until)s.")
            % {"until": timezone.localtime(row.excluded_until).strftime("%Y-%m-%d %H:%M")},
            code="self_excluded",
        )
    if row.cooling_until is not None and row.cooling_until > now:
        raise LimitRefused(
            _("You are taking a break from play until %(until)s.")
            % {"until": timezone.localtime(row.cooling_until).strftime("%Y-%m-%d %H:%M")},
            code="cooling_off",
        )
    for limit, window, message in (
        (row.daily_loss_limit, DAY, _("This would take your losses of the last 24 hours past your daily limit "
                                      "of %(limit)s coins (%(left)s left).")),
        (row.weekly_loss_limit, WEEK, _("This would take your losses of the last 7 days past your weekly limit "
                                        "of %(limit)s coins (%(left)s left).")),
    ):
        if limit is None:
            continue
        lost = table_loss(user=user, since=now - window)
        if lost + amount > limit:
            raise LimitRefused(message % {"limit": _coins(limit), "left": _coins(max(0, limit - lost))})


def _coins(minor: int) -> str:
    return format_coins(minor, grouping=True)  # as the pages write coins


def limit_refusal_record(*, user: User, refused: LimitRefused, amount: int, table_id: int) -> None:
    """Keep a refused buy-in or top-up for staff. Called once the refused change has rolled back
    (``games.services.seating``), so the row is its own transaction."""
    LimitRefusal.objects.create(user=user, reason=Refusal(refused.code), amount=amount, table_id=table_id)
