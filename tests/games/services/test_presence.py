"""Presence from heartbeats (games/services/presence.py): a seat silent since before a moment is
marked away, a seat heard from since is not, and the next heartbeat of a seat marked
away brings it back."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games.presence import presence_reset
from games.services import seating
from games.services.presence import seat_disconnected, seat_heartbeat
from tables.models import Seat

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _no_heartbeats_on_record():
    presence_reset()
    yield
    presence_reset()


def test_a_silent_seat_is_marked_away_and_its_next_heartbeat_brings_it_back(funded, table_for):
    table, user = table_for("thirteen"), funded()
    seating.seat_join(table_id=table.pk, user=user, buy_in=table.stake_level.min_buy_in, request_id="j")
    seat_heartbeat(table_id=table.pk, user=user)
    later = timezone.now() + timedelta(seconds=1)
    assert seat_disconnected(table_id=table.pk, user_id=user.pk, before=later) is True
    assert Seat.objects.get(table=table, user=user).disconnected
    seat_heartbeat(table_id=table.pk, user=user, away=True)
    assert not Seat.objects.get(table=table, user=user).disconnected


def test_a_seat_heard_from_after_the_moment_is_not_marked(funded, table_for):
    table, heard = table_for("thirteen"), funded()
    seating.seat_join(table_id=table.pk, user=heard, buy_in=table.stake_level.min_buy_in, request_id="j")
    earlier = timezone.now() - timedelta(seconds=60)
    seat_heartbeat(table_id=table.pk, user=heard)
    assert seat_disconnected(table_id=table.pk, user_id=heard.pk, before=earlier) is False
    assert not Seat.objects.filter(table=table, disconnected=True).exists()
