"""A dealt-in player's presence during a hand (games/services/hand_presence.py): a player leaving
the table mid-hand is kept as a leaver of that hand, and a player not dealt in changes nothing."""

from __future__ import annotations

import pytest
from django.db import transaction

from games.services import seating
from games.services.hand_presence import hand_player_left
from games.services.hands import hand_start_if_ready
from games.services.store import table_lock

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_dealt_in_player_leaving_is_kept_as_a_leaver_and_an_onlooker_changes_nothing(funded, table_for):
    table, users, onlooker = table_for("thirteen"), [funded() for _ in range(3)], funded()
    for i, user in enumerate(users):
        seating.seat_join(table_id=table.pk, user=user, buy_in=table.stake_level.min_buy_in * 3, request_id=f"j{i}")
    hand = hand_start_if_ready(table_id=table.pk)
    version = hand.version
    with transaction.atomic():
        hand_player_left(change=table_lock(table.pk), user=onlooker, leaving=True)
    hand.refresh_from_db()
    assert hand.leavers == [] and hand.version == version
    with transaction.atomic():
        hand_player_left(change=table_lock(table.pk), user=users[2], leaving=True)
    hand.refresh_from_db()
    assert hand.leavers == [users[2].pk]
