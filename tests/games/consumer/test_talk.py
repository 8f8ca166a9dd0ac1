"""Table talk over the socket (docs/PROTOCOL.md "Table talk"): a seated player's phrase reaches
every connection at the table, seated or watching; a player not seated, or one who has left, is
refused; the per-player limit answers in the player's language; and talking reads nothing from
the database."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.utils import translation
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.services.talk import EMOTES, PHRASES
from tests.games.live.helpers import WsPlayer, db

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


@pytest.fixture(autouse=True)
def _talk_limit(settings: Any) -> None:
    settings.GAMES_ABUSE_LIMITS = True
    settings.GAMES_TALK_LIMIT = 3
    settings.GAMES_TALK_WINDOW = 10


def _in_english(user: Any) -> Any:
    user.language = "en"
    user.save(update_fields=["language"])
    return user


async def _seated(table: Any, user: Any) -> WsPlayer:
    player = await WsPlayer(table.pk, user).connect()
    ack = await player.request({"type": "join", "buy_in": table.stake_level.min_buy_in})
    assert ack["type"] == "ack", ack
    await player.next("state", where=lambda f: f["you"] is not None)
    return player


async def test_a_seated_players_phrase_reaches_every_connection_at_the_table(funded: Any, table_for: Any) -> None:
    table = await db(table_for)("thirteen")
    ann, bo = await db(funded)(), await db(funded)()
    a, b = await _seated(table, ann), await _seated(table, bo)
    watcher = await WsPlayer(table.pk).connect()
    await a.drain(0.2)
    ack = await a.request({"type": "talk", "say": "hurry"})
    assert ack == {"type": "ack", "id": ack["id"], "for": "talk", "say": "hurry"}
    seat = a.last["you"]
    for p in (a, b, watcher):
        heard = await p.next("talk")
        assert heard == {"type": "talk", "seat": seat, "user": ann.pk, "say": "hurry"}
        assert await p.poll(0.1) is None  # once
    for p in (a, b, watcher):
        await p.close()


async def test_talking_reads_and_writes_nothing_in_the_database(
        funded: Any, table_for: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """The socket reaches the database only through its database threads (kernel.db_threads):
    a talk sends nothing there."""
    import games.consumers

    table = await db(table_for)("thirteen")
    a = await _seated(table, await db(funded)())
    await a.drain(0.2)
    calls: list[str] = []
    for lane in ("in_db_thread", "in_seat_thread"):
        real = getattr(games.consumers, lane)

        async def counted(fn: Any, *args: Any, _real: Any = real, _lane: str = lane) -> Any:
            calls.append(f"{_lane}:{getattr(fn, '__name__', fn)}")
            return await _real(fn, *args)

        monkeypatch.setattr(games.consumers, lane, counted)
    assert (await a.request({"type": "talk", "say": "thumbs_up"}))["type"] == "ack"
    await a.next("talk")
    assert calls == []
    await a.comm.send_to(text_data='{"type":"sync"}')  # the same lanes do see a request that reads
    await a.next("state")
    assert calls == ["in_db_thread:frame_for"]
    await a.close()


async def test_a_player_not_seated_is_told_so_and_a_signed_out_watcher_to_log_in(funded: Any, table_for: Any) -> None:
    table = await db(table_for)("thirteen")
    seated = await _seated(table, await db(funded)())
    standing = await WsPlayer(table.pk, await db(_in_english)(await db(funded)())).connect()
    watcher = await WsPlayer(table.pk).connect()
    refused = await standing.request({"type": "talk", "say": "hello"})
    assert refused["code"] == "not_seated"
    with translation.override("en"):
        assert refused["message"] == "Only players seated at this table may talk."
    assert (await watcher.request({"type": "talk", "say": "hello"}))["code"] == "login_required"
    await seated.drain(0.2)
    assert all(m["type"] != "talk" for m in seated.messages)
    for p in (seated, standing, watcher):
        await p.close()


async def test_a_player_who_left_may_not_talk_any_more(funded: Any, table_for: Any) -> None:
    table = await db(table_for)("thirteen")
    a = await _seated(table, await db(funded)())
    assert (await a.request({"type": "talk", "say": "bye"}))["type"] == "ack"
    assert (await a.request({"type": "leave"}))["type"] == "ack"
    await a.next("state", where=lambda f: f["you"] is None)
    assert (await a.request({"type": "talk", "say": "bye"}))["code"] == "not_seated"
    await a.close()


async def test_talking_past_the_limit_is_refused_with_the_wait_in_the_players_language(funded: Any, table_for: Any) -> None:
    table = await db(table_for)("thirteen")
    a = await _seated(table, await db(funded)())  # a player's language is 简体 unless they chose
    for say in ("hello", "laugh", "nice_hand"):
        assert (await a.request({"type": "talk", "say": say}))["type"] == "ack"
    refused = await a.request({"type": "talk", "say": "thanks"})
    assert refused["code"] == "rate_limited" and 0 < refused["retry_after"] <= 10
    assert refused["message"].startswith("聊天太快了：每 10 秒最多 3 条短语或表情。")
    await a.close()


async def test_an_unknown_saying_is_a_bad_message_that_spends_nothing(funded: Any, table_for: Any) -> None:
    table = await db(table_for)("thirteen")
    a = await _seated(table, await db(funded)())
    for say in ("shout", "x" * 33, 7, None, ["hurry"]):
        refused = await a.request({"type": "talk", "say": say})
        assert refused["code"] == "bad_message", (say, refused)
    for say in ("hello", "smile", "thanks"):  # the whole allowance is still there
        assert (await a.request({"type": "talk", "say": say}))["type"] == "ack"
    await a.close()


@settings(max_examples=25, deadline=None, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(batch=st.lists(
    st.fixed_dictionaries({"say": st.sampled_from([*PHRASES, *EMOTES]) | st.text(max_size=40) | st.integers() | st.none()},
                          optional={"id": st.text(alphabet="abc123", min_size=1, max_size=8), "extra": st.text(max_size=5)}),
    min_size=1, max_size=6,
))
async def test_random_talk_from_a_seated_player_is_answered_once_and_never_fails(
        funded: Any, table_for: Any, fast_socket: Any, batch: list[dict[str, Any]]) -> None:
    table = await db(table_for)("thirteen")
    a = await _seated(table, await db(funded)())
    for fields in batch:
        await a.comm.send_to(text_data=json.dumps({"type": "talk", **fields}))
        reply = await a.next_any(("ack", "error"), 10, lambda m: True)
        assert reply["type"] == "ack" or reply["code"] in ("bad_message", "rate_limited", "duplicate_id"), (fields, reply)
    await a.comm.send_to(text_data='{"type":"ping"}')
    assert (await a.next("pong"))["type"] == "pong"
    await a.close()
