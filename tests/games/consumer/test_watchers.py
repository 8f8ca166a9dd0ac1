"""Watching (games/watching.py, games/watchers.py, docs/PROTOCOL.md "Watchers"): a watcher gets
the public frame only, never a card a seat has not revealed, in every game and mode; every
connection at the table is told how many watch, and a watcher who sits down stops counting; a
server tells a table's count once for the changes of half a second."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator

from games import watching
from games.adapters import player_limits
from games.routing import websocket_urlpatterns
from games.services.hands import hand_start_if_ready
from tests.games.live.helpers import WsPlayer, _WithUser, cards_in, db, gather, play_until_settled

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

CASES = [("thirteen", ""), ("thirteen_trio", ""), ("samgong", "all_compare"), ("samgong", "banker_bid"),
         ("samgong", "banker_rotate"), ("samgong", "pairwise"), ("samgong", "house")]


def _by_version(frames: list[dict[str, Any]], hand_id: int) -> dict[int, set[str]]:
    return {f["version"]: cards_in(f["hand"]) for f in frames if f["hand"] and f["hand"]["id"] == hand_id}


@pytest.mark.parametrize(("game", "mode"), CASES)
async def test_a_watcher_sees_no_card_that_not_every_seated_player_sees(game, mode, funded, table_for):
    table = await db(table_for)(game, mode)
    n = max(2, player_limits(table.stake_level)[0])
    players = [await WsPlayer(table.pk, await db(funded)()).connect() for _ in range(n)]
    for p in players:
        assert (await p.request({"type": "join", "buy_in": table.stake_level.min_buy_in * 2}))["type"] == "ack"
    watchers = [await WsPlayer(table.pk).connect(), await WsPlayer(table.pk, await db(funded)()).connect()]
    hand = await db(hand_start_if_ready)(table_id=table.pk)
    assert hand is not None
    await play_until_settled(players, hand.pk)
    for w in watchers:
        await w.next("state", where=lambda f: f["hand"] and f["hand"]["id"] == hand.pk
                     and f["hand"]["status"] != "active")
    seated = [_by_version(p.frames, hand.pk) for p in players]
    for w in watchers:
        seen = _by_version(w.frames, hand.pk)
        compared = 0
        for version, cards in seen.items():
            if all(version in s for s in seated):
                shared = set.intersection(*(s[version] for s in seated))
                assert cards <= shared, (game, mode, version, cards - shared)
                compared += 1
        assert compared, "no frame of the watcher's could be compared"
        last = max(seen)
        assert seen[last], "the showdown reveals cards to the watcher too"
        assert all(f["you"] is None and f["leave"] is None for f in w.frames)
    await gather(*(p.close() for p in [*players, *watchers]))


def _hearing(table_id: int, user: Any = None) -> WsPlayer:
    """A client that asks for the count of watchers, as the table page does."""
    player = WsPlayer(table_id, user)
    player.comm = WebsocketCommunicator(_WithUser(URLRouter(websocket_urlpatterns), user),
                                        f"/ws/tables/{table_id}/?watchers=1")
    return player


async def _count(player: WsPlayer, count: int) -> dict[str, Any]:
    return await player.next("watchers", timeout=10, where=lambda m: m["count"] == count)


async def test_everyone_at_the_table_hears_how_many_watch_and_a_watcher_who_sits_stops_counting(funded, table_for):
    table = await db(table_for)("thirteen")
    seated = await _hearing(table.pk, await db(funded)()).connect()
    assert (await seated.request({"type": "join", "buy_in": table.stake_level.min_buy_in}))["type"] == "ack"
    anonymous = await _hearing(table.pk).connect()
    await _count(seated, 1)
    signed_in = await _hearing(table.pk, await db(funded)()).connect()
    await _count(seated, 2)
    await _count(anonymous, 2)
    reply = await signed_in.request({"type": "join", "buy_in": table.stake_level.min_buy_in})
    assert reply["type"] == "ack"
    await _count(seated, 1)  # the watcher who sat down no longer counts
    await anonymous.close()
    await _count(seated, 0)
    assert (await signed_in.request({"type": "leave"}))["type"] == "ack"
    await _count(seated, 1)  # stood up: watching again
    await gather(seated.close(), signed_in.close())


async def test_a_client_that_did_not_ask_for_the_count_is_sent_none(funded, table_for):
    table = await db(table_for)("thirteen")
    quiet = await WsPlayer(table.pk).connect()
    hearing = await _hearing(table.pk).connect()
    await _count(hearing, 2)
    assert await quiet.poll(0.3) is None  # two watchers came and went: not a frame to it
    await gather(quiet.close(), hearing.close())


async def _watchers_heard(player: WsPlayer, seconds: float) -> list[int]:
    """The counts ``player`` is told within ``seconds``."""
    heard: list[int] = []
    loop = asyncio.get_running_loop()
    end = loop.time() + seconds
    while loop.time() < end:
        message = await player.poll(0.05)
        if message is not None and message["type"] == "watchers":
            heard.append(message["count"])
    return heard


async def test_a_server_tells_a_tables_count_once_for_the_changes_of_half_a_second(funded, table_for, monkeypatch):
    window = 1.5  # longer than half a second, so that a slow machine keeps each step inside one
    monkeypatch.setattr(watching, "TELL_WITHIN", window)
    table = await db(table_for)("thirteen")
    seated = await _hearing(table.pk, await db(funded)()).connect()
    assert (await seated.request({"type": "join", "buy_in": table.stake_level.min_buy_in}))["type"] == "ack"
    assert await _watchers_heard(seated, window * 2) == [0]  # its own connect and join, told as one count
    # A player opens the table and sits down at once: the count did not change, so nothing is told.
    newcomer = await WsPlayer(table.pk, await db(funded)()).connect()
    assert (await newcomer.request({"type": "join", "buy_in": table.stake_level.min_buy_in}))["type"] == "ack"
    assert await _watchers_heard(seated, window * 2) == []
    # Three watchers arrive together: one count.
    watchers = [await WsPlayer(table.pk).connect() for _ in range(3)]
    assert await _watchers_heard(seated, window * 2) == [3]
    await gather(*(p.close() for p in [seated, newcomer, *watchers]))
