"""In the browser: the session reminder appears on the table page when the chosen minutes are up."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games.services.seating import seat_join
from responsible.services import limits_set
from tables.models import Seat
from tests.browser.conftest import call

pytestmark = pytest.mark.browser


def _seated_for(user, table, seconds: float) -> None:
    limits_set(user=user, daily=None, weekly=None, reminder_minutes=1)
    seat_join(table_id=table.pk, user=user, buy_in=table.stake_level.min_buy_in, request_id="j")
    Seat.objects.filter(user=user).update(joined_at=timezone.now() - timedelta(seconds=seconds))


def test_the_reminder_shows_when_the_minute_is_up(player, make_table):
    table = call(make_table, "thirteen")
    p = player("Rena", lang="en")
    call(_seated_for, p.user, table, 57)
    p.open(f"/tables/{table.pk}/")
    box = p.page.locator("[data-testid=session-reminder]")
    assert box.is_hidden()
    box.wait_for(state="visible", timeout=10_000)
    assert "1 minute" in box.inner_text() and p.errors == [] and p.csp_violations == []
