"""A pong tells the client the newest table version broadcast, so a client whose frame was
lost on its way asks for the snapshot (docs/PROTOCOL.md "Client obligations"); a ping is the
connection's heartbeat."""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import timezone

from games.broadcast import broadcast_table
from games.presence import presence_read
from games.sent import sent_reset
from games.services.presence import seat_disconnected
from tables.models import Seat, Table
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


async def test_a_ping_puts_the_heartbeat_on_record_and_brings_an_away_seat_back(funded: Any, table_for: Any) -> None:
    """The heartbeat goes to Redis from the server's event loop; the database hears of it only
    when the seat was away (docs/ARCHITECTURE.md "Timers, presence and the watchdog")."""
    table = await db(table_for)("thirteen")
    ann = await db(funded)()
    player = await WsPlayer(table.pk, ann).connect()
    assert (await player.request({"type": "join", "buy_in": table.stake_level.min_buy_in}))["type"] == "ack"
    await player.next("state")
    before = (await db(presence_read)([(table.pk, ann.pk)]))[(table.pk, ann.pk)]
    await _pong(player)
    after = (await db(presence_read)([(table.pk, ann.pk)]))[(table.pk, ann.pk)]
    assert after > before

    assert await db(seat_disconnected)(table_id=table.pk, user_id=ann.pk, before=timezone.now())
    away = await player.next("state", where=lambda f: any(s["user"] == ann.pk and s["auto"] for s in f["seats"]))
    await _pong(player)  # the connection's last frame showed the seat away: this ping brings it back
    back = await player.next("state", where=lambda f: f["version"] > away["version"])
    assert not next(s for s in back["seats"] if s["user"] == ann.pk)["auto"]
    assert not await db(Seat.objects.filter(table=table, user=ann, disconnected=True).exists)()
    await player.close()


async def test_a_connection_that_opens_brings_an_away_seat_back_in_its_first_snapshot(funded: Any,
                                                                                       table_for: Any) -> None:
    """Opening a socket is the seat's heartbeat too: a seat marked away (its player's page gone
    past the presence timeout) plays for itself again, and the snapshot the new connection
    starts from shows it; the others hear of it."""
    table = await db(table_for)("thirteen")
    ann, bob = await db(funded)(), await db(funded)()
    watcher = await WsPlayer(table.pk, bob).connect()
    first = await WsPlayer(table.pk, ann).connect()
    assert (await first.request({"type": "join", "buy_in": table.stake_level.min_buy_in}))["type"] == "ack"
    await first.close()
    assert await db(seat_disconnected)(table_id=table.pk, user_id=ann.pk, before=timezone.now())
    away = await watcher.next("state", where=lambda f: any(s["user"] == ann.pk and s["auto"] for s in f["seats"]))

    again = WsPlayer(table.pk, ann)
    connected, _ = await again.comm.connect()
    assert connected
    snapshot = await again.next("state")
    mine = next(s for s in snapshot["seats"] if s["user"] == ann.pk)
    assert snapshot["you"] == mine["index"] and not mine["auto"] and mine["connected"]
    assert snapshot["version"] > away["version"]
    assert not await db(Seat.objects.filter(table=table, user=ann, disconnected=True).exists)()
    back = await watcher.next("state", where=lambda f: f["version"] > away["version"])
    assert not next(s for s in back["seats"] if s["user"] == ann.pk)["auto"]
    for p in (watcher, again):
        await p.close()
