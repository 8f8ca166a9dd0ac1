"""Over the socket: the state frames a seated trio player and a spectator receive say what the
table waits for, where the set stands, and (to the player only) what leaving would cost
(docs/PROTOCOL.md "The `state` frame")."""

from __future__ import annotations

from typing import Any

import pytest

from games.adapters import engine_rules
from games.services.hands import hand_start_if_ready
from tests.games.live.helpers import WsPlayer, db

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def test_the_socket_frames_carry_the_wait_the_set_and_the_players_own_leave_terms(
        funded: Any, table_for: Any) -> None:
    table = await db(table_for)("thirteen_trio")
    base = (await db(engine_rules)(table.stake_level))["base"]
    watcher = await WsPlayer(table.pk).connect()
    assert watcher.last["waiting"] == {"reason": "players", "ready": 0, "min": 3, "need": 3, "sitting_out": 0}
    assert watcher.last["set"] == {"game": 1, "size": 6, "in_play": False}
    players = [await WsPlayer(table.pk, await db(funded)()).connect() for _ in range(3)]
    for p in players:
        assert (await p.request({"type": "join", "buy_in": table.stake_level.min_buy_in}))["type"] == "ack"
    hand = await db(hand_start_if_ready)(table_id=table.pk)
    assert hand is not None
    await players[0].drain()
    me = await players[0].state()
    assert me["waiting"] is None and me["set"] == {"game": 1, "size": 6, "in_play": True}
    assert me["leave"] == {"games_left": 6, "game": 1, "size": 6, "penalty": base // 2}
    await watcher.drain()
    public = await watcher.state()
    assert public["leave"] is None and public["set"] == me["set"]
    for p in [watcher, *players]:
        await p.close()
