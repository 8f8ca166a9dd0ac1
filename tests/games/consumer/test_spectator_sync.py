"""A signed-out socket's sync is answered with the public frame this process already holds when
it is as new as the table's last broadcast, and from the database otherwise
(games/public_frames.py)."""

from __future__ import annotations

import json

import pytest
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator

from games import broadcast, sent
from games.routing import websocket_urlpatterns
from games.sent import sent_reset
from tables.models import Table
from tests.games.live.helpers import _WithUser, db

pytestmark = [pytest.mark.django_db(transaction=True)]


async def _sync(comm: WebsocketCommunicator) -> dict:
    await comm.send_json_to({"type": "sync"})
    return json.loads(await comm.receive_from(timeout=10))


@pytest.mark.asyncio
async def test_a_spectators_sync_is_the_kept_public_frame_until_a_newer_version_is_broadcast(table_for):
    await db(sent_reset)()  # a test database starts its table ids over: records of other tables would be ahead
    table = await db(table_for)("thirteen")
    comm = WebsocketCommunicator(_WithUser(URLRouter(websocket_urlpatterns), None), f"/ws/tables/{table.pk}/")
    comm.scope["client"] = ("203.0.113.20", 50000)
    assert (await comm.connect())[0]
    first = json.loads(await comm.receive_from(timeout=10))
    await db(broadcast.broadcast_table)(table.pk)
    heard = json.loads(await comm.receive_from(timeout=10))
    assert heard["version"] == first["version"] and heard["closed"] is False
    # Closed behind the broadcasts' back: the version last broadcast is still the kept frame's.
    await db(Table.objects.filter(pk=table.pk).update)(status=Table.Status.CLOSED)
    assert await _sync(comm) == heard
    # A newer version went out that this process has not heard: the frame is read again.
    await db(Table.objects.filter(pk=table.pk).update)(version=heard["version"] + 1)
    await db(sent.sent_mark)(table.pk, heard["version"] + 1)
    fresh = await _sync(comm)
    assert fresh["version"] == heard["version"] + 1 and fresh["closed"] is True
    await comm.disconnect()
