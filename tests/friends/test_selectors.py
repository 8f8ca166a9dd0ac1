"""A player's friends as the lobby shows them (friends.selectors): online first, the open table
an online friend sits at (its id, name and game, nothing of its hand), and who blocked whom."""

from __future__ import annotations

from typing import Any

import pytest
from asgiref.sync import async_to_sync

from accounts.models import User
from friends import services
from friends.online import online_enter, online_leave
from friends.selectors import friend_list, is_blocked, player_by_name, viewer_table
from games.services.seating import seat_join
from tests.factories import funded_user, table_at

pytestmark = pytest.mark.django_db(transaction=True)


def _friends(a: Any, b: Any) -> None:
    row = services.friend_request_send(user=a, name=b.shown_name)
    services.friend_request_accept(user=b, request_id=row.pk)


def test_online_friends_come_first_with_the_table_they_sit_at() -> None:
    me = User.objects.create_user(username="me", password="x" * 12, display_name="我")
    seated = funded_user("seated", 1_000_000, display_name="Zed")
    idle = User.objects.create_user(username="idle", password="x" * 12, display_name="Amy")
    away = funded_user("away", 1_000_000, display_name="Bea")
    for friend in (seated, idle, away):
        _friends(me, friend)
    table = table_at("thirteen")
    for user in (seated, away):
        seat_join(table_id=table.pk, user=user, buy_in=table.stake_level.min_buy_in, request_id=f"j{user.pk}")
    async_to_sync(online_enter)(user_id=seated.pk, channel="c-seated")
    async_to_sync(online_enter)(user_id=idle.pk, channel="c-idle")
    try:
        rows = friend_list(user=me)
        assert [(r.name, r.online, r.table_id) for r in rows] == [
            ("Amy", True, None), ("Zed", True, table.pk), ("Bea", False, None)]  # an offline friend's table is not shown
        assert rows[1].table_name == table.name and rows[1].table_url == f"/tables/{table.pk}/" and rows[1].game
        assert viewer_table(user=seated) == table and viewer_table(user=me) is None
    finally:
        async_to_sync(online_leave)(user_id=seated.pk, channel="c-seated")
        async_to_sync(online_leave)(user_id=idle.pk, channel="c-idle")
    assert [r.online for r in friend_list(user=me)] == [False, False, False]


def test_is_blocked_is_one_players_own() -> None:
    a = User.objects.create_user(username="a", password="x" * 12)
    b = User.objects.create_user(username="b", password="x" * 12)
    services.friend_block(user=a, other_id=b.pk)
    assert is_blocked(by=a, user=b) is True and is_blocked(by=b, user=a) is False


def test_a_player_is_found_by_display_name_or_by_username_without_one() -> None:
    named = User.objects.create_user(username="named", password="x" * 12, display_name="Ｌｉｎ")
    plain = User.objects.create_user(username="plain", password="x" * 12)
    gone = User.objects.create_user(username="gone", password="x" * 12, is_active=False)
    assert player_by_name(name="lin") == named  # width and case as the platform compares names
    assert player_by_name(name="named") is None  # a display name hides the username
    assert player_by_name(name="plain") == plain
    assert player_by_name(name=gone.username) is None
