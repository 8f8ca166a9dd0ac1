"""Closing a day: only once it has been over for the grace period, once only, newest days
first and a few per run; a closed day's figures are what the ledger gave for it."""

import datetime as dt
from zoneinfo import ZoneInfo

import pytest
import time_machine

from operations.closing import GRACE, day_bounds, day_figures_close, day_figures_close_due
from operations.figures import figures_between
from operations.models import DayClosed, DayFigure
from tests.factories import funded_user

pytestmark = pytest.mark.django_db
UTC = ZoneInfo("UTC")
DAY = dt.date(2026, 3, 9)


def test_a_day_closes_once_its_grace_is_over_and_only_once() -> None:
    start, end = day_bounds(day=DAY, tz=UTC)
    with time_machine.travel(start + dt.timedelta(hours=3), tick=False):
        funded_user("closer", 5_000)
    assert not day_figures_close(day=DAY, tz=UTC, now=end + GRACE - dt.timedelta(seconds=1))
    assert not DayClosed.objects.exists()
    assert day_figures_close(day=DAY, tz=UTC, now=end + GRACE)
    assert not day_figures_close(day=DAY, tz=UTC, now=end + GRACE)
    stored = list(DayFigure.objects.values_list("figure", "house", "kind", "value"))
    assert stored == [("house_kind", "issuance", "grant", -5_000)]
    assert [(f.figure, f.house, f.kind, f.value) for f in figures_between(since=start, until=end, tz=UTC)] == stored


def test_the_due_days_close_newest_first_a_few_a_run() -> None:
    now = dt.datetime(2026, 3, 10, 12, tzinfo=dt.UTC)
    assert day_figures_close_due(now=now, most=3) == 3
    assert sorted(DayClosed.objects.values_list("day", flat=True)) == [
        dt.date(2026, 3, 7), dt.date(2026, 3, 8), dt.date(2026, 3, 9)]
    assert day_figures_close_due(now=now, most=100) == 87  # the rest of the 90 days
    assert day_figures_close_due(now=now, most=100) == 0
