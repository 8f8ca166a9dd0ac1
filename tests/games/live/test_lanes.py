"""A hand's actions and seat changes take separate lanes of a server's database threads
(kernel/db_threads.py): a burst of seat changes queues among its own, never before an action."""

from __future__ import annotations

import threading

import pytest

from games.services.hands import hand_start_if_ready
from kernel.db_threads import db_executor
from tests.games.live.helpers import WsPlayer, db, gather
from tests.games.live.test_thirteen_live import arrangement

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def test_an_action_is_answered_while_every_seat_thread_is_busy(funded, table_for, settings):
    users = [await db(funded)() for _ in range(2)]
    table = await db(table_for)("thirteen")
    p, q = [await WsPlayer(table.pk, u).connect() for u in users]
    for player in (p, q):
        assert (await player.request({"type": "join", "buy_in": table.stake_level.min_buy_in}))["type"] == "ack"
    hand = await db(hand_start_if_ready)(table_id=table.pk)
    await p.next("state", where=lambda f: f["hand"] and f["hand"]["id"] == hand.pk)

    release = threading.Event()
    busy = [db_executor("seat").submit(release.wait, 30) for _ in range(settings.GAMES_DB_SEAT_THREADS)]
    try:
        await q.comm.send_json_to({"type": "sit_out", "id": "out-1", "out": True})
        reply = await p.request({"type": "action", "action": arrangement(p.last["hand"]["view"])}, timeout=10)
        assert reply["type"] == "ack" and reply["status"] == "applied"
        assert await q.poll(0.3) is None or not any(m.get("id") == "out-1" for m in q.messages)
    finally:
        release.set()
    assert all(done.result(timeout=5) for done in busy)
    reply = await q.next_reply("out-1")  # the seat change ran once its lane was free
    assert reply["type"] == "ack" and reply["status"] == "sitting_out"
    await gather(p.close(), q.close())
