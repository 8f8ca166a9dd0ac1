"""Responsible-play reads (platform/responsible/selectors.py): who may not be dealt in or sit down
and why, read in one query, and when a player's session began."""

from __future__ import annotations

import pytest
from django.utils import timezone

from accounts.models import User
from games.services import seating
from responsible.selectors import play_barred, session_started
from responsible.services import cool_off_start, exclusion_start
from tests.factories import funded_user, table_at

pytestmark = pytest.mark.django_db(transaction=True)


def test_play_barred_names_each_barred_player_with_why_and_leaves_out_the_free(django_assert_num_queries):
    free, banned, excluded, cooling = (funded_user(name, 1_000) for name in ("free", "banned", "excl", "cool"))
    User.objects.filter(pk=banned.pk).update(is_active=False)
    exclusion_start(user=excluded, period="7d")
    cool_off_start(user=cooling, period="1h")
    with django_assert_num_queries(1):
        barred = play_barred(user_ids=[free.pk, banned.pk, excluded.pk, cooling.pk], now=timezone.now())
    assert barred == {banned.pk: "banned", excluded.pk: "self_excluded", cooling.pk: "cooling_off"}


def test_a_session_begins_at_the_first_seat_held_and_there_is_none_without_one():
    table, user = table_at("thirteen", name="t"), funded_user("p", 1_000_000)
    assert session_started(user=user) is None
    seat = seating.seat_join(table_id=table.pk, user=user, buy_in=table.stake_level.min_buy_in, request_id="a")
    assert session_started(user=user) == seat.joined_at
