"""The server keeps its sockets' connection slots (games/services/slots.py): a refresh claims
each kept slot again, and a slot the user's other sockets took meanwhile is lost and its socket
told, once."""

from __future__ import annotations

import uuid

import pytest

from games.services.limits import connection_claim_async, connection_limit
from games.services.slots import slot_forget, slot_keep, slots_refresh

pytestmark = pytest.mark.asyncio


@pytest.fixture(autouse=True)
def _limits_on(settings):
    settings.GAMES_ABUSE_LIMITS = True


@pytest.fixture
def owner() -> int:
    """A user id of this test's own: the embedded store lives as long as the process."""
    return uuid.uuid4().int % 10**12


async def test_a_kept_slot_still_held_is_refreshed_and_nothing_is_lost(owner):
    told: list[str] = []

    async def lost() -> None:
        told.append("lost")

    assert await connection_claim_async(user_id=owner, channel="kept")
    slot_keep(owner=owner, channel="kept", lost=lost)
    try:
        assert await slots_refresh() == 0
    finally:
        slot_forget(channel="kept")
    assert told == []


async def test_a_kept_slot_the_users_other_sockets_filled_is_lost_and_its_socket_told_once(owner):
    told: list[str] = []

    async def lost() -> None:
        told.append("lost")

    for i in range(connection_limit(owner)):
        assert await connection_claim_async(user_id=owner, channel=f"other{i}")
    slot_keep(owner=owner, channel="kept", lost=lost)
    try:
        assert await slots_refresh() == 1
        assert await slots_refresh() == 0  # forgotten once lost
    finally:
        slot_forget(channel="kept")
    assert told == ["lost"]
