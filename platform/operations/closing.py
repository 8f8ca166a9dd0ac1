"""Writes of the house dashboard: the figures of a day that is over, stored once
(:class:`operations.models.DayFigure`), so the dashboard reads a long window from a few rows
and counts only the days still open from the ledger (docs/OPERATIONS.md "House dashboard")."""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

from django.db import IntegrityError, transaction
from django.utils import timezone

from operations.figures import figures_between
from operations.models import DayClosed, DayFigure

#: A day is closed once it has been over this long: a hand settled in its last moment has
#: committed by then (its settlement takes seconds at most).
GRACE = dt.timedelta(hours=1)
#: How far back the closing looks for days not closed yet: the dashboard's longest window.
LOOK_BACK_DAYS = 90
#: Days one run closes at most, newest first, so one run stays short (a day of a million hands
#: a hundred days is ~10,000 hands) and a first run on a long ledger spreads over a few hours.
CLOSE_PER_RUN = 3


def day_bounds(*, day: dt.date, tz: ZoneInfo) -> tuple[dt.datetime, dt.datetime]:
    """The first moment of ``day`` in ``tz`` and of the day after."""
    start = dt.datetime.combine(day, dt.time(), tzinfo=tz)
    return start, dt.datetime.combine(day + dt.timedelta(days=1), dt.time(), tzinfo=tz)


def day_figures_close(*, day: dt.date, tz: ZoneInfo, now: dt.datetime | None = None) -> bool:
    """Store the figures of ``day`` (in ``tz``) once it has been over for :data:`GRACE`;
    False when it is not over yet or was closed before.

    1. The day's :class:`DayClosed` row goes in first: a concurrent closing of the same day
       fails on its unique constraint and writes nothing.
    2. Its figures are counted from the ledger and stored in the same transaction.
    """
    start, end = day_bounds(day=day, tz=tz)
    if end + GRACE > (now or timezone.now()):
        return False
    try:
        with transaction.atomic():
            DayClosed.objects.create(time_zone=tz.key, day=day)
            DayFigure.objects.bulk_create(
                DayFigure(time_zone=tz.key, day=f.day, figure=f.figure, level=f.level, house=f.house, kind=f.kind,
                          value=f.value)
                for f in figures_between(since=start, until=end, tz=tz) if f.value
            )
    except IntegrityError:
        return False
    return True


def day_figures_close_due(*, now: dt.datetime | None = None, most: int = CLOSE_PER_RUN) -> int:
    """Close up to ``most`` of the days of the last :data:`LOOK_BACK_DAYS` (in the site's time
    zone) that are over and not closed yet, newest first; returns how many it closed. Run by
    beat every ``OPERATIONS_CLOSE_DAYS_EVERY`` seconds."""
    now = now or timezone.now()
    tz = ZoneInfo(timezone.get_current_timezone_name())
    today = timezone.localtime(now, tz).date()
    days = [today - dt.timedelta(days=n) for n in range(1, LOOK_BACK_DAYS + 1)]
    closed = set(DayClosed.objects.filter(time_zone=tz.key, day__in=days).values_list("day", flat=True))
    done = 0
    for day in days:
        if done >= most:
            break
        if day not in closed:
            done += day_figures_close(day=day, tz=tz, now=now)
    return done
