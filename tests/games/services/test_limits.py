"""Per-user limits of live play (games/services/limits.py, docs/PROTOCOL.md "Limits"): a user
gets its limit of expensive requests in a window and is told when the next one is allowed, one
request of a kind is worked on at a time, and a user's open table connections stop at the cap.
Run on whichever store the settings name (Redis with REDIS_URL, else this process)."""

from __future__ import annotations

import uuid

import pytest

from games.services.limits import (
    connection_claim,
    connection_limit,
    connection_release,
    in_flight_drop,
    in_flight_take,
    request_allowance,
)


@pytest.fixture(autouse=True)
def _limits_on(settings):
    settings.GAMES_ABUSE_LIMITS = True


@pytest.fixture
def owner() -> int:
    """A user id of this test's own: the embedded store lives as long as the process."""
    return uuid.uuid4().int % 10**12


def test_requests_beyond_the_limit_in_a_window_are_told_how_long_to_wait(owner):
    answers = [request_allowance(user_id=owner, name="hint", limit=3, window=60) for _ in range(4)]
    assert answers[:3] == [None, None, None]
    assert answers[3] is not None and 0 < answers[3] <= 60
    assert request_allowance(user_id=owner + 1, name="hint", limit=3, window=60) is None  # another user's window


def test_one_request_of_a_kind_is_in_flight_at_a_time_until_it_is_dropped(owner):
    assert in_flight_take(user_id=owner, name="hint", ttl=30)
    assert not in_flight_take(user_id=owner, name="hint", ttl=30)
    in_flight_drop(user_id=owner, name="hint")
    assert in_flight_take(user_id=owner, name="hint", ttl=30)


def test_a_user_claims_connections_up_to_the_limit_and_a_released_one_is_free_again(owner):
    limit = connection_limit(owner)
    assert all(connection_claim(user_id=owner, channel=f"c{i}") for i in range(limit))
    assert not connection_claim(user_id=owner, channel="one-more")
    connection_release(user_id=owner, channel="c0")
    assert connection_claim(user_id=owner, channel="one-more")
