"""Per-user limits (docs/PROTOCOL.md "Limits"): open table connections, and hints across all of a
user's connections; the counts of a dead server expire; repeated hints are free."""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

import pytest
import time_machine
from django.core.cache import cache

from games.services import limits
from games.services.hands import hand_start_if_ready
from tests.games.live.helpers import WsPlayer, db

pytestmark = [pytest.mark.django_db(transaction=True)]


async def _refused_connection(table_id: int, user: Any) -> dict[str, Any]:
    """Connect and expect the error frame and the close that refuse an extra connection."""
    player = WsPlayer(table_id, user)
    connected, _ = await player.comm.connect()
    assert connected  # accepted so that the error frame can say why
    error = json.loads(await player.comm.receive_from(timeout=10))
    closed = await player.comm.receive_output(timeout=10)
    assert closed == {"type": "websocket.close", "code": 4429}
    return error


@pytest.mark.asyncio
async def test_a_user_may_keep_only_so_many_table_connections_open(funded, table_for, settings):
    settings.GAMES_WS_CONNECTIONS_PER_USER = 2
    ann, table = await db(funded)(), await db(table_for)("thirteen")
    first, second = [await WsPlayer(table.pk, ann).connect() for _ in range(2)]
    error = await _refused_connection(table.pk, ann)
    assert error["code"] == "too_many_connections" and "2" in error["message"]
    spectators = [await WsPlayer(table.pk).connect() for _ in range(3)]  # anonymous: no per-user count
    other = await WsPlayer(table.pk, await db(funded)()).connect()  # another user has their own
    await first.close()
    third = await WsPlayer(table.pk, ann).connect()  # a closed connection frees its place
    assert (await third.state())["type"] == "state"
    for p in [second, third, other, *spectators]:
        await p.close()


@pytest.mark.asyncio
async def test_the_connections_of_a_killed_server_stop_counting_after_the_slot_ttl(funded, table_for, settings):
    settings.GAMES_WS_CONNECTIONS_PER_USER = 2
    ann, table = await db(funded)(), await db(table_for)("thirteen")
    for channel in ("dead-server-1", "dead-server-2"):  # left behind: no disconnect ever ran
        assert await db(limits.connection_claim)(user_id=ann.pk, channel=channel)
    assert (await _refused_connection(table.pk, ann))["code"] == "too_many_connections"
    with time_machine.travel(time.time() + settings.GAMES_WS_SLOT_TTL + 1, tick=True):
        player = await WsPlayer(table.pk, ann).connect()
        assert (await player.state())["type"] == "state"
        await player.close()


def test_the_in_process_counts_expire_and_free_their_places():
    store = limits._Local()
    start = time.time()
    with time_machine.travel(start, tick=False) as clock:
        assert store.claim(1, "a", 1, 30) and not store.claim(1, "b", 1, 30)
        assert store.claim(1, "a", 1, 30)  # refreshing its own place
        clock.shift(31)
        assert store.claim(1, "b", 1, 30)
        assert store.window("k", 10) == (1, 10) and store.window("k", 10)[0] == 2
        clock.shift(10)
        assert store.window("k", 10)[0] == 1
        assert store.lock_take("h", 30) and not store.lock_take("h", 30)
        store.lock_drop("h")
        assert store.lock_take("h", 30)


async def _trio_hand(funded, table_for):
    table = await db(table_for)("thirteen_trio")
    users = [await db(funded)() for _ in range(3)]
    players = [await WsPlayer(table.pk, u).connect() for u in users]
    for p in players:
        assert (await p.request({"type": "join", "buy_in": table.stake_level.min_buy_in}))["type"] == "ack"
    hand = await db(hand_start_if_ready)(table_id=table.pk)
    for p in players:
        await p.next("state", where=lambda f: f["hand"] and f["hand"]["id"] == hand.pk)
    return table, users, players, hand


@pytest.mark.asyncio
async def test_hints_are_limited_per_user_across_connections_and_repeats_are_free(funded, table_for, settings):
    settings.GAMES_HINT_LIMIT, settings.GAMES_HINT_WINDOW = 2, 60
    table, users, players, hand = await _trio_hand(funded, table_for)
    second = await WsPlayer(table.pk, users[0]).connect()  # the same player, another tab
    key = f"hint:{hand.pk}:{hand.commitment[:16]}:{hand.seat_of(users[0].pk)}:{hand.phase_seq}"
    first = await players[0].request({"type": "hint"})
    assert first["type"] == "ack" and first["hints"]
    for conn in (second, players[0], second):  # the same phase again: from the cache, not counted
        assert (await conn.request({"type": "hint"}))["hints"] == first["hints"]
    await db(cache.delete)(key)
    assert (await second.request({"type": "hint"}))["type"] == "ack"  # the second counted hint
    await db(cache.delete)(key)
    refused = await players[0].request({"type": "hint"})
    assert refused["type"] == "error" and refused["code"] == "rate_limited"
    assert 0 < refused["retry_after"] <= 60 and "2" in refused["message"]
    other = await players[1].request({"type": "hint"})  # another player is not held back
    assert other["type"] == "ack" and other["hints"]
    for p in [*players, second]:
        await p.close()


@pytest.mark.asyncio
async def test_a_user_has_at_most_one_hint_in_flight(funded, table_for):
    table, users, players, hand = await _trio_hand(funded, table_for)
    assert await db(limits.in_flight_take)(user_id=users[0].pk, name="hint", ttl=30)  # one in flight
    busy = await players[0].request({"type": "hint"})
    assert busy["code"] == "rate_limited" and busy["retry_after"] == 1
    await db(limits.in_flight_drop)(user_id=users[0].pk, name="hint")
    assert (await players[0].request({"type": "hint"}))["type"] == "ack"
    for p in players:
        await p.close()


def test_while_redis_is_down_every_limit_allows_and_nothing_raises(caplog):
    down = limits._Redis("redis://127.0.0.1:1/0")  # nothing listens on port 1
    started = time.monotonic()
    assert down.claim(1, "chan", limit=1, ttl=30) is True
    assert down.claim(1, "other", limit=1, ttl=30) is True  # over the limit, but unknown: allowed
    down.release(1, "chan")
    assert down.window("rate:hint:1", 10) == (0, 0.0)
    assert down.lock_take("busy:hint:1", 5) is True
    down.lock_drop("busy:hint:1")
    assert time.monotonic() - started < 10
    assert "Redis unreachable" in caplog.text


@pytest.mark.asyncio
async def test_while_redis_is_down_a_slot_claimed_from_the_event_loop_is_allowed(caplog):
    down = limits._Redis("redis://127.0.0.1:1/0")
    started = time.monotonic()
    assert await down.aclaim(1, "chan", limit=1, ttl=30) is True
    assert await down.aclaim(1, "other", limit=1, ttl=30) is True
    await down.arelease(1, "chan")  # a closing socket's: nothing raises
    assert time.monotonic() - started < 10
    assert "Redis unreachable" in caplog.text


@pytest.mark.asyncio
async def test_a_slot_claimed_from_the_event_loop_counts_with_the_threads_claims():
    """The consumer claims and releases from its loop (``aclaim``, ``arelease``), the tests and
    a refresh from a thread (``claim``, ``release``): one count either way, and a Redis that lost
    the script is given it again."""
    store = limits._store()
    user = 900_000 + int(time.time()) % 100_000
    assert await db(store.claim)(user, "a", 2, 30)
    assert await store.aclaim(user, "b", 2, 30)
    assert await store.aclaim(user, "c", 2, 30) is False
    if isinstance(store, limits._Redis):
        await db(store.client.script_flush)()
    assert await store.aclaim(user, "a", 2, 30)  # a refresh of a counted one
    await store.arelease(user, "a")  # a closing socket's, from its loop
    assert await store.aclaim(user, "c", 2, 30)
    await db(store.release)(user, "b")
    await db(store.release)(user, "c")


def _slots(user_id: int) -> dict[str, float]:
    """The user's counted connections, channel -> when each slot expires."""
    store = limits._store()
    if isinstance(store, limits._Redis):
        pairs = store.client.zrange(limits._slot_key(user_id), 0, -1, withscores=True)
        return {channel.decode(): score for channel, score in pairs}
    return dict(store.slots.get(user_id, {}))


async def _ping(player: WsPlayer) -> dict[str, Any]:
    await player.comm.send_to(text_data='{"type":"ping"}')
    return await player.next_any(("pong", "error"), 10, lambda m: True)


@pytest.mark.asyncio
async def test_a_heartbeat_keeps_its_slot_fresh_in_its_own_round_trip(funded, table_for, settings, monkeypatch):
    """A ping whose slot is due for a refresh refreshes it in the heartbeat's round trip: the
    slot's expiry moves on and, in Redis, the claim script is never run for it."""
    settings.GAMES_WS_SLOT_TTL = 1.2  # a refresh is due 0.2 s after the last
    ann, table = await db(funded)(), await db(table_for)("thirteen")
    player = await WsPlayer(table.pk, ann).connect()
    (channel, expires), = (await db(_slots)(ann.pk)).items()
    store, claims = limits._store(), []
    for name in ("claim", "aclaim"):  # the claim (in Redis, its script) counted from now on
        method = getattr(store, name)
        monkeypatch.setattr(store, name, lambda *args, _method=method, **kwargs: claims.append(args) or _method(*args, **kwargs))
    await asyncio.sleep(0.3)
    assert (await _ping(player))["type"] == "pong"
    assert (await db(_slots)(ann.pk))[channel] > expires
    if isinstance(store, limits._Redis):
        assert claims == []
    await player.close()


@pytest.mark.asyncio
async def test_a_heartbeat_whose_slot_was_taken_claims_one_again_or_is_refused(funded, table_for, settings):
    """A slot gone from the count (expired, then dropped by another claim) is claimed again at
    the next heartbeat, which counts: with the user's other connections at the limit, it is
    refused like an extra connection."""
    settings.GAMES_WS_SLOT_TTL = 1.2
    settings.GAMES_WS_CONNECTIONS_PER_USER = 2
    ann, table = await db(funded)(), await db(table_for)("thirteen")
    player = await WsPlayer(table.pk, ann).connect()
    (channel,) = await db(_slots)(ann.pk)
    await db(limits.connection_release)(user_id=ann.pk, channel=channel)
    await asyncio.sleep(0.3)
    assert (await _ping(player))["type"] == "pong"
    assert channel in await db(_slots)(ann.pk)  # claimed again

    await db(limits.connection_release)(user_id=ann.pk, channel=channel)
    for other in ("other-1", "other-2"):
        assert await db(limits.connection_claim)(user_id=ann.pk, channel=other)
    await asyncio.sleep(0.3)
    assert (await _ping(player))["code"] == "too_many_connections"
    assert await player.comm.receive_output(timeout=10) == {"type": "websocket.close", "code": 4429}
    for other in ("other-1", "other-2"):
        await db(limits.connection_release)(user_id=ann.pk, channel=other)
