"""The sweeper (games/services/sweeper.py): one sweep marks away the seats silent for
GAMES_PRESENCE_TIMEOUT and no other, and reports what it did."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.utils import timezone

from games.presence import presence_reset
from games.services import seating
from games.services.presence import seat_heartbeat
from games.services.sweeper import hands_sweep, sweep_last
from tables.models import Seat

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _no_heartbeats_on_record():
    presence_reset()
    yield
    presence_reset()


def test_a_sweep_marks_away_only_the_seat_silent_past_the_presence_timeout(funded, table_for, settings):
    table, silent, heard = table_for("thirteen"), funded(), funded()
    for i, user in enumerate((silent, heard)):
        seating.seat_join(table_id=table.pk, user=user, buy_in=table.stake_level.min_buy_in, request_id=f"j{i}")
        seat_heartbeat(table_id=table.pk, user=user)
    later = timezone.now() + timedelta(seconds=settings.GAMES_PRESENCE_TIMEOUT + 5)
    with time_machine.travel(later, tick=False):
        seat_heartbeat(table_id=table.pk, user=heard)
        report = hands_sweep(later)
    assert report["disconnected"] == 1
    assert list(Seat.objects.filter(table=table, disconnected=True).values_list("user_id", flat=True)) == [silent.pk]
    assert sweep_last() is not None
