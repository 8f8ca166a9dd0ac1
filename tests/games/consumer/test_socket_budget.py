"""No account or address can open sockets without limit: signed-out spectators are counted per
client address and rate-limited, and the per-user cap holds however long a socket stays silent
(the server keeps its slots fresh itself: games/services/slots.py)."""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

import pytest
import time_machine
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator

from games import gate
from games.routing import websocket_urlpatterns
from games.services import limits, slots
from tests.games.live.helpers import WsPlayer, _WithUser, db

pytestmark = [pytest.mark.django_db(transaction=True)]


def _spectator(table_id: int, address: str) -> WebsocketCommunicator:
    comm = WebsocketCommunicator(_WithUser(URLRouter(websocket_urlpatterns), None), f"/ws/tables/{table_id}/")
    comm.scope["client"] = (address, 50000)
    return comm


async def _opened(comm: WebsocketCommunicator) -> dict[str, Any]:
    connected, _ = await comm.connect()
    assert connected
    return json.loads(await comm.receive_from(timeout=10))


async def _refused(comm: WebsocketCommunicator) -> dict[str, Any]:
    first = await _opened(comm)  # accepted so that the error frame can say why
    assert await comm.receive_output(timeout=10) == {"type": "websocket.close", "code": 4429}
    return first


@pytest.mark.asyncio
async def test_signed_out_sockets_are_limited_per_client_address(table_for, settings):
    settings.GAMES_WS_CONNECTIONS_PER_ADDRESS = 3
    table = await db(table_for)("thirteen")
    opened = [_spectator(table.pk, "203.0.113.7") for _ in range(3)]
    for comm in opened:
        assert (await _opened(comm))["type"] == "state"
    error = await _refused(_spectator(table.pk, "203.0.113.7"))
    assert error["type"] == "error" and error["code"] == "too_many_connections" and "3" in error["message"]
    other = _spectator(table.pk, "198.51.100.1")  # another address has its own count
    assert (await _opened(other))["type"] == "state"
    await opened[0].disconnect()  # a closed socket frees its place
    again = _spectator(table.pk, "203.0.113.7")
    assert (await _opened(again))["type"] == "state"
    for comm in [*opened[1:], other, again]:
        await comm.disconnect()


@pytest.mark.asyncio
async def test_a_signed_out_socket_may_sync_only_at_the_spectators_rate(table_for, settings):
    """Past its burst a signed-out socket is told ``rate_limited`` once; what it sends before the
    wait is over goes unanswered, and once the wait is over it is answered again."""
    settings.GAMES_WS_ANON_RATE, settings.GAMES_WS_ANON_BURST = 2.0, 3
    table = await db(table_for)("thirteen")
    comm = _spectator(table.pk, "203.0.113.8")
    await _opened(comm)
    answers = []
    for _ in range(6):
        await comm.send_json_to({"type": "sync"})
    for _ in range(4):
        answers.append(json.loads(await comm.receive_from(timeout=10)))
    assert [a["type"] for a in answers] == ["state"] * 3 + ["error"]
    assert answers[-1]["code"] == "rate_limited" and answers[-1]["retry_after"] > 0
    assert await comm.receive_nothing(timeout=0.2)  # the other two syncs went unanswered
    await asyncio.sleep(answers[-1]["retry_after"] + 0.1)  # the bucket's refill is the behaviour under test
    await comm.send_json_to({"type": "sync"})
    assert json.loads(await comm.receive_from(timeout=10))["type"] == "state"
    await comm.disconnect()


@pytest.mark.asyncio
async def test_the_per_user_cap_holds_after_a_silent_gap_longer_than_the_slot_ttl(funded, table_for, settings):
    """Six sockets, then silence for 40 s (the slot TTL is 30 s) while the server keeps its slots
    fresh as it does every 10 s: a seventh is still refused."""
    settings.GAMES_WS_CONNECTIONS_PER_USER = 6
    ann, table = await db(funded)(), await db(table_for)("thirteen")
    batch = [await WsPlayer(table.pk, ann).connect() for _ in range(6)]
    with time_machine.travel(time.time(), tick=False) as clock:
        for _ in range(4):
            clock.shift(settings.GAMES_WS_SLOT_TTL / 3)
            assert await slots.slots_refresh() == 0
        extra = WsPlayer(table.pk, ann)
        connected, _ = await extra.comm.connect()
        assert connected
        error = json.loads(await extra.comm.receive_from(timeout=10))
    assert error["code"] == "too_many_connections"
    for p in batch:
        await p.close()


@pytest.mark.asyncio
async def test_the_server_refreshes_its_sockets_slots_by_itself(funded, table_for, settings):
    settings.GAMES_WS_SLOT_TTL = 0.6  # refreshed every 0.2 s
    ann, table = await db(funded)(), await db(table_for)("thirteen")
    player = await WsPlayer(table.pk, ann).connect()
    store = limits._store()
    key = f"ws:{ann.pk}"

    async def expiry() -> float:
        if isinstance(store, limits._Local):
            return store.slots[ann.pk][next(iter(store.slots[ann.pk]))]
        return float((await db(store.client.zrange)(limits._key(key), 0, -1, withscores=True))[0][1])

    first = await expiry()
    deadline = time.monotonic() + 10
    while await expiry() == first and time.monotonic() < deadline:  # the refresher's next round
        await asyncio.sleep(0.05)
    assert await expiry() > first
    await player.close()


@pytest.mark.asyncio
async def test_a_socket_whose_slot_was_lost_to_a_full_count_is_closed(funded, table_for, settings):
    settings.GAMES_WS_CONNECTIONS_PER_USER = 1
    ann, table = await db(funded)(), await db(table_for)("thirteen")
    player = await WsPlayer(table.pk, ann).connect()
    [channel] = slots._kept().slots  # the one socket this loop keeps
    await limits.connection_release_async(user_id=ann.pk, channel=channel)  # lost (a Redis restart)
    assert await db(limits.connection_claim)(user_id=ann.pk, channel="another-server")  # and taken
    assert await slots.slots_refresh() == 1
    error = await player.next("error")
    assert error["code"] == "too_many_connections"
    assert await player.comm.receive_output(timeout=10) == {"type": "websocket.close", "code": 4429}


@pytest.mark.asyncio
async def test_an_address_told_of_its_limit_is_refused_before_the_handshake_until_the_quiet_window_ends(
    table_for, settings
):
    settings.GAMES_WS_CONNECTIONS_PER_ADDRESS, settings.GAMES_WS_REFUSAL_QUIET = 1, 10.0
    table = await db(table_for)("thirteen")
    watching = _spectator(table.pk, "203.0.113.9")
    assert (await _opened(watching))["type"] == "state"
    with time_machine.travel(time.time(), tick=False) as clock:
        told = await _refused(_spectator(table.pk, "203.0.113.9"))
        assert told["code"] == "too_many_connections"  # the first refusal says why
        clock.shift(9)
        assert await _spectator(table.pk, "203.0.113.9").connect(timeout=10) == (False, 4429)  # no frame: HTTP 403
        other = _spectator(table.pk, "198.51.100.2")  # another address is not affected
        assert (await _opened(other))["type"] == "state"
        clock.shift(2)
        assert (await _refused(_spectator(table.pk, "203.0.113.9")))["code"] == "too_many_connections"
    for comm in (watching, other):
        await comm.disconnect()


@pytest.mark.asyncio
async def test_an_address_the_gate_found_full_is_refused_for_a_second_without_reading_its_count(table_for, settings):
    """A flood from one address costs the gate one count read a second: a slot freed meanwhile
    is taken at the next read."""
    settings.GAMES_WS_CONNECTIONS_PER_ADDRESS, settings.GAMES_WS_REFUSAL_QUIET = 1, 10.0
    settings.GAMES_WS_FULL_REMEMBER = 1.0
    table = await db(table_for)("thirteen")
    watching = _spectator(table.pk, "203.0.113.13")
    assert (await _opened(watching))["type"] == "state"
    with time_machine.travel(time.time(), tick=False) as clock:
        assert (await _refused(_spectator(table.pk, "203.0.113.13")))["code"] == "too_many_connections"
        assert await _spectator(table.pk, "203.0.113.13").connect(timeout=10) == (False, 4429)  # read: full
        await watching.disconnect()  # its slot is free now
        clock.shift(0.9)
        assert await _spectator(table.pk, "203.0.113.13").connect(timeout=10) == (False, 4429)  # not read again
        clock.shift(0.2)
        again = _spectator(table.pk, "203.0.113.13")
        assert (await _opened(again))["type"] == "state"  # read again: the slot is taken
    await again.disconnect()


@pytest.mark.asyncio
async def test_sockets_the_gate_let_by_for_a_slot_taken_since_are_refused_before_the_handshake(
    table_for, settings, monkeypatch
):
    """A flood's sockets arrive together when a slot frees: the gate sees room for each, the first
    takes the slot, and the rest, whose address was told why already, get no handshake."""
    settings.GAMES_WS_CONNECTIONS_PER_ADDRESS, settings.GAMES_WS_REFUSAL_QUIET = 1, 10.0
    table = await db(table_for)("thirteen")
    watching = _spectator(table.pk, "203.0.113.11")
    assert (await _opened(watching))["type"] == "state"
    assert (await _refused(_spectator(table.pk, "203.0.113.11")))["code"] == "too_many_connections"

    async def room_seen(*, user_id: int | str) -> bool:  # the gate read the count as a slot freed
        return False

    monkeypatch.setattr(gate, "connection_full_async", room_seen)
    racing = [_spectator(table.pk, "203.0.113.11") for _ in range(3)]
    assert [await comm.connect(timeout=10) for comm in racing] == [(False, 4429)] * 3
    await watching.disconnect()
