"""Friends (friends.services): a request the other accepts, removing, blocking, the rate limit,
and inviting a friend to one's table."""

from __future__ import annotations

import itertools
from typing import Any
from unittest import mock

import pytest

from accounts.models import User
from friends import invitations, services
from friends.errors import FriendRefused
from friends.models import Block, Friendship
from friends.selectors import friend_ids, friend_requests_incoming, is_blocked
from tests.factories import funded_user, table_at

pytestmark = pytest.mark.django_db
_names = itertools.count(1)


def _user(display_name: str = "") -> Any:
    n = next(_names)
    return User.objects.create_user(username=f"u{n}", password="x" * 12, display_name=display_name,
                                    name_key=None)


@pytest.fixture
def ann() -> Any:
    return User.objects.create_user(username="ann", password="x" * 12, display_name="阿安")


@pytest.fixture
def bo() -> Any:
    return User.objects.create_user(username="bo", password="x" * 12, display_name="Bo")


def _friends(a: Any, b: Any) -> None:
    row = services.friend_request_send(user=a, name=b.shown_name)
    services.friend_request_accept(user=b, request_id=row.pk)


def test_a_request_by_display_name_becomes_a_friendship_once_accepted(ann: Any, bo: Any) -> None:
    row = services.friend_request_send(user=ann, name="  bo ")  # names compare as the platform compares them
    assert row.status == Friendship.Status.PENDING and friend_ids(user=ann) == []
    assert [r.pk for r in friend_requests_incoming(user=bo)] == [row.pk]
    with pytest.raises(FriendRefused) as refused:
        services.friend_request_accept(user=ann, request_id=row.pk)  # only its receiver accepts it
    assert refused.value.code == "no_request"
    services.friend_request_accept(user=bo, request_id=row.pk)
    assert friend_ids(user=ann) == [bo.pk] and friend_ids(user=bo) == [ann.pk]


def test_asking_someone_who_asked_you_accepts_their_request(ann: Any, bo: Any) -> None:
    services.friend_request_send(user=ann, name="Bo")
    row = services.friend_request_send(user=bo, name="阿安")
    assert row.status == Friendship.Status.ACCEPTED and Friendship.objects.count() == 1


@pytest.mark.parametrize(("name", "code"), [("nobody", "not_found"), ("阿安", "self"), ("", "not_found")])
def test_a_request_to_no_one_or_oneself_is_refused(ann: Any, name: str, code: str) -> None:
    with pytest.raises(FriendRefused) as refused:
        services.friend_request_send(user=ann, name=name)
    assert refused.value.code == code and not Friendship.objects.exists()


def test_asking_twice_or_a_friend_is_refused(ann: Any, bo: Any) -> None:
    services.friend_request_send(user=ann, name="Bo")
    with pytest.raises(FriendRefused) as refused:
        services.friend_request_send(user=ann, name="Bo")
    assert refused.value.code == "already_sent"
    services.friend_request_accept(user=bo, request_id=Friendship.objects.get().pk)
    with pytest.raises(FriendRefused) as refused:
        services.friend_request_send(user=bo, name="阿安")
    assert refused.value.code == "already_friends"


def test_a_blocked_player_cannot_ask_and_learns_nothing_of_the_block(ann: Any, bo: Any) -> None:
    _friends(ann, bo)
    services.friend_block(user=bo, other_id=ann.pk)
    assert is_blocked(by=bo, user=ann) and not is_blocked(by=ann, user=bo)
    assert friend_ids(user=ann) == [] and friend_ids(user=bo) == []  # bo vanished from ann's list
    with pytest.raises(FriendRefused) as refused:
        services.friend_request_send(user=ann, name="Bo")
    assert refused.value.code == "not_found"  # as if there were no such player
    with pytest.raises(FriendRefused) as refused:
        services.friend_request_send(user=bo, name="阿安")
    assert refused.value.code == "blocked"
    services.friend_unblock(user=bo, other_id=ann.pk)
    services.friend_request_send(user=ann, name="Bo")


def test_blocking_by_name_ends_a_pending_request(ann: Any, bo: Any) -> None:
    services.friend_request_send(user=ann, name="Bo")
    services.friend_block_by_name(user=bo, name="阿安")
    assert not Friendship.objects.exists() and Block.objects.filter(blocker=bo, blocked=ann).exists()
    with pytest.raises(FriendRefused):
        services.friend_block(user=bo, other_id=bo.pk)


def test_removing_a_friend_ends_it_for_both(ann: Any, bo: Any) -> None:
    _friends(ann, bo)
    services.friend_remove(user=bo, friend_id=ann.pk)
    assert friend_ids(user=ann) == [] and not Friendship.objects.exists()


def test_friend_requests_are_rate_limited(ann: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(services, "REQUESTS_PER_HOUR", 3)
    for _ in range(3):
        with pytest.raises(FriendRefused) as refused:
            services.friend_request_send(user=ann, name="nobody")
        assert refused.value.code == "not_found"
    with pytest.raises(FriendRefused) as refused:
        services.friend_request_send(user=ann, name="nobody")
    assert refused.value.code == "rate_limited"


def test_an_invitation_goes_to_a_friend_from_a_seated_player(ann: Any, bo: Any) -> None:
    from games.services.seating import seat_join

    table = table_at("thirteen")
    with pytest.raises(FriendRefused) as refused:
        services.friend_invite(user=ann, friend_id=bo.pk)
    assert refused.value.code == "not_seated"
    seated = funded_user("seated", 1_000_000, display_name="Seated")
    seat_join(table_id=table.pk, user=seated, buy_in=table.stake_level.min_buy_in, request_id="join")
    with pytest.raises(FriendRefused) as refused:
        services.friend_invite(user=seated, friend_id=bo.pk)
    assert refused.value.code == "not_friend"
    _friends(seated, bo)
    with mock.patch.object(invitations, "group_send") as sent, \
            mock.patch("django.db.transaction.on_commit", side_effect=lambda fn, robust=False: fn()):
        services.friend_invite(user=seated, friend_id=bo.pk)
    ((group, event),) = sent.call_args.args
    assert group == f"user.{bo.pk}"
    assert event == {"type": "friend.invite", "sender": "Seated", "table": table.pk, "table_name": table.name,
                     "url": f"/tables/{table.pk}/"}
