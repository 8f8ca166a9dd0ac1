"""A pong tells the client the newest table version broadcast, so a client whose frame was
lost on its way asks for the snapshot (docs/PROTOCOL.md "Client obligations")."""

from __future__ import annotations

from typing import Any

import pytest

from games.broadcast import broadcast_table
from games.sent import sent_reset
from tables.models import Table
from tests.games.live.helpers import WsPlayer, db

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


@pytest.fixture(autouse=True)
def _no_records_of_other_runs() -> None:
    sent_reset()  # a test database starts its table ids over; the records would be of other tables


async def _pong(player: WsPlayer) -> dict[str, Any]:
    await player.comm.send_to(text_data='{"type":"ping"}')
    return await player.next("pong")


async def test_a_pong_carries_the_newest_version_broadcast(funded: Any, table_for: Any) -> None:
    table = await db(table_for)("thirteen")
    watcher = await WsPlayer(table.pk, await db(funded)()).connect()
    assert (await _pong(watcher))["version"] is None  # nothing broadcast yet

    player = await WsPlayer(table.pk, await db(funded)()).connect()
    assert (await player.request({"type": "join", "buy_in": table.stake_level.min_buy_in}))["type"] == "ack"
    frame = await watcher.next("state")
    assert (await _pong(watcher))["version"] == frame["version"]

    # A change whose frame never reached this connection: the pong says the table went further.
    await db(Table.objects.filter(pk=table.pk).update)(version=frame["version"] + 1)
    await db(broadcast_table)(table.pk)
    pong = await _pong(player)
    assert pong["version"] == frame["version"] + 1
    for p in (watcher, player):
        await p.close()
