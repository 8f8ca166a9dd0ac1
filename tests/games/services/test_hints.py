"""The hint button (games/services/hints.py): a player asks only about their own seat in the hand
in play; with no hand for them there is nothing to solve and they are told why."""

from __future__ import annotations

import pytest

from games.services import seating
from games.services.errors import NoActiveHand
from games.services.hands import hand_start_if_ready
from games.services.hints import hand_hint_job

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_player_without_a_hand_at_the_table_is_told_no_hand_is_in_play(funded, table_for):
    table, users, onlooker = table_for("thirteen"), [funded() for _ in range(2)], funded()
    with pytest.raises(NoActiveHand):
        hand_hint_job(table_id=table.pk, user=users[0])
    for i, user in enumerate(users):
        seating.seat_join(table_id=table.pk, user=user, buy_in=table.stake_level.min_buy_in * 3, request_id=f"j{i}")
    hand = hand_start_if_ready(table_id=table.pk)
    with pytest.raises(NoActiveHand) as refused:
        hand_hint_job(table_id=table.pk, user=onlooker)
    assert refused.value.code == "no_hand" and refused.value.localized()
    job = hand_hint_job(table_id=table.pk, user=users[1])
    assert (job.hand_id, job.seat, job.needed) == (hand.pk, hand.seat_of(users[1].pk), True)
