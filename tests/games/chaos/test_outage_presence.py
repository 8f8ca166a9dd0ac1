"""Our own outage is not the players' absence (docs/RULES.md: disconnections caused by our own
servers carry no penalty): heartbeats could not be recorded while the platform was down, so the
sweeper that finds the outage gives presence its lost time back, as it does the deadlines."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.utils import timezone

from games.models import Hand
from games.services.hands import hand_start_if_ready
from games.services.presence import seat_heartbeat
from games.services.seating import seat_join
from games.services.sweeper import hands_sweep
from tables.models import Seat
from tests.factories import funded_user, table_at

pytestmark = pytest.mark.django_db


def test_players_silent_only_because_we_were_down_are_not_marked_away_nor_charged() -> None:
    table = table_at("thirteen_trio")
    users = [funded_user(f"t{i}", 50_000_000) for i in range(3)]
    for i, user in enumerate(users):
        seat_join(table_id=table.pk, user=user, buy_in=table.stake_level.min_buy_in * 2, request_id=f"t-join-{i}")
        seat_heartbeat(table_id=table.pk, user=user)
    hand = hand_start_if_ready(table_id=table.pk)
    assert hand is not None
    hands_sweep()
    with time_machine.travel(timezone.now() + timedelta(minutes=5)):
        report = hands_sweep()  # the first sweep after the outage
        assert report["extended"] == 1 and report["disconnected"] == 0
        assert not Seat.objects.filter(table=table, disconnected=True).exists()
        assert Hand.objects.get(pk=hand.pk).status == Hand.Status.VOIDED
        nxt = hand_start_if_ready(table_id=table.pk)
    assert nxt is not None
    assert all(s["connected"] for s in nxt.state["seats"]) and nxt.state["first_disconnect"] is None


def test_a_player_still_silent_after_the_outage_is_marked_away() -> None:
    from django.conf import settings

    table = table_at("thirteen")
    users = [funded_user(f"s{i}", 10_000_000) for i in range(2)]
    for i, user in enumerate(users):
        seat_join(table_id=table.pk, user=user, buy_in=table.stake_level.min_buy_in, request_id=f"s-join-{i}")
        seat_heartbeat(table_id=table.pk, user=user)
    hands_sweep()
    start = timezone.now() + timedelta(minutes=5)
    with time_machine.travel(start):
        hands_sweep()  # the outage found: presence given its time back
    later = start
    while later < start + timedelta(seconds=settings.GAMES_PRESENCE_TIMEOUT + 2):
        later += timedelta(seconds=settings.GAMES_OUTAGE_AFTER / 2)  # the sweeper running again
        with time_machine.travel(later):
            seat_heartbeat(table_id=table.pk, user=users[0])  # one came back, the other did not
            hands_sweep()
    assert list(Seat.objects.filter(table=table, disconnected=True).values_list("user_id", flat=True)) == [users[1].pk]
