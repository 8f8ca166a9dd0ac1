"""Over the socket: a change's frames reach the servers as one message (games.broadcast), and
each connection sends its own user's frame only, a spectator the public one."""

from __future__ import annotations

from typing import Any

import pytest
from channels.layers import get_channel_layer

from games.broadcast import frames_event, table_group
from tests.games.live.helpers import WsPlayer, db

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def test_each_connection_sends_its_own_users_frame_and_a_spectator_the_public_one(
        funded: Any, table_for: Any) -> None:
    table = await db(table_for)("thirteen")
    alice, bob = await db(funded)(), await db(funded)()
    a, b, watcher = WsPlayer(table.pk, alice), WsPlayer(table.pk, bob), WsPlayer(table.pk)
    for p in (a, b, watcher):
        await p.connect()
    version = max(p.last["version"] for p in (a, b, watcher)) + 1
    frame = {**watcher.last, "version": version}
    event = frames_event(
        table.pk, {alice.pk: {**frame, "marker": "alice's"}, bob.pk: {**frame, "marker": "bob's"}},
        {**frame, "marker": "public"},
    )
    await get_channel_layer().group_send(table_group(table.pk), event)
    got = [await p.next("state", where=lambda f: f["version"] == version) for p in (a, b, watcher)]
    assert [f["marker"] for f in got] == ["alice's", "bob's", "public"]
    for p in (a, b, watcher):
        assert await p.poll(0.2) is None  # one frame each: nobody hears another's
        await p.close()
