"""Bad input, timers, disconnects, races and outages: the game and the ledger stay consistent
and the player is told what happened."""

from __future__ import annotations

import asyncio
import json
import uuid
from datetime import timedelta

import pytest
import time_machine
from django.utils import timezone

from games.models import Clock, Hand, HandAction
from games.services import hands as hand_services
from games.services.hands import hand_expire, hand_start_if_ready
from games.services.sweeper import hands_sweep
from tables.models import Seat
from tests.games.live.helpers import WsPlayer, db, gather
from wallet import selectors

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def _seated_table(funded, table_for, n=2, game="thirteen", mode="", language=None):
    users = [await db(funded)() for _ in range(n)]
    if language:  # players read the default language (zh-hans) unless they chose another
        for user in users:
            user.language = language
            await db(user.save)(update_fields=["language"])
    table = await db(table_for)(game, mode)
    players = [await WsPlayer(table.pk, u).connect() for u in users]
    for p in players:
        assert (await p.request({"type": "join", "buy_in": table.stake_level.min_buy_in}))["type"] == "ack"
    return table, users, players


def _sweeper_ran_just_now() -> None:
    """The sweeper ticks every few seconds in production; tests that jump in time say so."""
    Clock.objects.update_or_create(name="sweeper", defaults={"last_tick": timezone.now() - timedelta(seconds=1)})


async def _deal(table, players):
    hand = await db(hand_start_if_ready)(table_id=table.pk)
    for p in players:
        await p.next("state", where=lambda f: f["hand"] and f["hand"]["id"] == hand.pk)
    return hand


async def test_malformed_messages_get_error_frames_and_the_connection_stays(funded, table_for):
    table, users, (p, q) = await _seated_table(funded, table_for, language="en")
    cases = [
        ("{not json", "invalid JSON"),
        ("[1, 2]", "JSON object"),
        (json.dumps({"type": "fly"}), "unknown message type"),
        (json.dumps({"type": "action", "action": {}}), "needs an 'id'"),
        (json.dumps({"type": "action", "id": "a1"}), "needs 'action'"),
        (json.dumps({"type": "join", "id": "j1", "buy_in": -5}), "positive whole number"),
        (json.dumps({"type": "join", "id": "j2", "buy_in": 10.5}), "positive whole number"),
    ]
    for text, words in cases:
        await p.comm.send_to(text_data=text)
        reply = await p.next("error")
        assert reply["code"] == "bad_message" and words in reply["message"], (text, reply)
    assert (await p.state())["type"] == "state"  # still connected and served
    await gather(p.close(), q.close())


async def test_an_action_without_a_hand_or_seat_is_refused_with_a_reason(funded, table_for):
    table, users, (p, q) = await _seated_table(funded, table_for)
    reply = await p.request({"type": "action", "action": {"type": "declare"}})
    assert reply["type"] == "error" and reply["code"] == "no_hand"
    outsider = await WsPlayer(table.pk, await db(funded)()).connect()
    await _deal(table, [p, q])
    reply = await outsider.request({"type": "action", "action": {"type": "declare"}})
    assert reply["code"] == "not_seated"
    anonymous = await WsPlayer(table.pk).connect()
    reply = await anonymous.request({"type": "action", "action": {"type": "declare"}})
    assert reply["code"] == "login_required"
    await gather(p.close(), q.close(), outsider.close(), anonymous.close())


async def test_illegal_moves_are_refused_and_change_nothing(funded, table_for):
    table, users, (p, q) = await _seated_table(funded, table_for)
    hand = await _deal(table, [p, q])
    foreign = (await q.state())["hand"]["view"]["seats"][1]["cards"]
    reply = await p.request({"type": "action", "action": {"type": "arrange", "front": foreign[:3],
                                                          "middle": foreign[3:8], "back": foreign[8:13]}})
    assert reply["type"] == "error" and reply["code"] == "illegal"
    reply = await p.request({"type": "action", "action": {"type": "disconnect"}})
    assert reply["code"] == "illegal"  # presence is measured by the server, not declared
    fresh = await db(Hand.objects.get)(pk=hand.pk)
    assert fresh.version == hand.version and fresh.state == hand.state
    await gather(p.close(), q.close())


async def test_the_same_action_sent_twice_is_applied_once(funded, table_for):
    from tests.games.live.test_thirteen_live import arrangement

    table, users, (p, q) = await _seated_table(funded, table_for)
    hand = await _deal(table, [p, q])
    action = arrangement(p.last["hand"]["view"])
    first = {"type": "action", "id": "same-id", "action": action}
    await p.comm.send_json_to(first)
    await p.comm.send_json_to(first)
    replies = [await p.next_reply("same-id"), await p.next_reply("same-id")]
    assert sorted(r["status"] for r in replies) == ["applied", "duplicate"]
    assert await db(HandAction.objects.filter(hand_id=hand.pk, client_id="same-id").count)() == 1
    await gather(p.close(), q.close())


async def test_a_seat_that_times_out_is_auto_played_and_marked(funded, table_for):
    from tests.games.live.test_thirteen_live import arrangement

    table, users, (p, q) = await _seated_table(funded, table_for)
    hand = await _deal(table, [p, q])
    await p.request({"type": "action", "action": arrangement(p.last["hand"]["view"])})
    assert not await db(hand_expire)(hand_id=hand.pk, phase_seq=hand.phase_seq)  # not due yet
    with time_machine.travel(hand.deadline + timedelta(seconds=1)):
        assert await db(hand_expire)(hand_id=hand.pk, phase_seq=hand.phase_seq)
    frame = await q.next("state", where=lambda f: f["hand"]["status"] == "settled")
    assert frame["hand"]["view"]["result"] is not None
    auto = await db(lambda: list(HandAction.objects.filter(hand_id=hand.pk, auto=True).values_list("seat", flat=True)))()
    assert auto == [1]
    # a late timer for the same phase does nothing
    assert not await db(hand_expire)(hand_id=hand.pk, phase_seq=hand.phase_seq)
    await gather(p.close(), q.close())


async def test_disconnect_mid_arrangement_autoplays_and_reconnect_gets_a_snapshot(funded, table_for, settings):
    table, users, players = await _seated_table(funded, table_for, n=3, game="thirteen_trio")
    hand = await _deal(table, players)
    gone = players[2]
    await gone.close()  # no more heartbeats
    later = timezone.now() + timedelta(seconds=settings.GAMES_PRESENCE_TIMEOUT + 1)
    with time_machine.travel(later):
        for p in players[:2]:
            await p.comm.send_json_to({"type": "ping"})
            await p.next("pong")
        report = await db(hands_sweep)()
    assert report["disconnected"] == 1
    frame = await players[0].next("state", where=lambda f: any(s["auto"] for s in f["seats"]))
    assert [s["auto"] for s in frame["seats"]] == [False, False, True]
    # time runs out (30 s, the automatic extension, then auto-play for everyone still arranging)
    fresh = await db(Hand.objects.get)(pk=hand.pk)
    for _ in range(2):
        with time_machine.travel(fresh.deadline + timedelta(seconds=1)):
            await db(_sweeper_ran_just_now)()
            await db(hand_expire)(hand_id=fresh.pk, phase_seq=fresh.phase_seq)
        fresh = await db(Hand.objects.get)(pk=hand.pk)
    assert fresh.status == Hand.Status.SETTLED
    assert fresh.result["penalty"] is not None  # the trio's first disconnection pays ½ base
    back = await WsPlayer(table.pk, users[2]).connect()  # reconnect: full snapshot
    assert back.last["you"] == 2 and back.last["hand"]["id"] == hand.pk
    assert back.last["hand"]["view"]["result"] is not None
    seat = await db(Seat.objects.get)(table=table, user=users[2])
    assert not seat.disconnected  # its heartbeat is back
    await gather(*(p.close() for p in [*players[:2], back]))


async def test_a_worker_dying_after_the_deadline_is_covered_by_the_sweeper(funded, table_for):
    table, users, (p, q) = await _seated_table(funded, table_for)
    hand = await _deal(table, [p, q])
    await db(hands_sweep)()  # the sweeper ticks regularly
    with time_machine.travel(hand.deadline + timedelta(seconds=2)):
        # the timer task was lost with its worker; the next sweep finishes the phase
        await db(Clock.objects.filter(name="sweeper").update)(last_tick=timezone.now() - timedelta(seconds=3))
        report = await db(hands_sweep)()
    assert report["expired"] == 1
    assert (await db(Hand.objects.get)(pk=hand.pk)).status == Hand.Status.SETTLED
    await gather(p.close(), q.close())


async def test_deadlines_that_passed_during_an_outage_are_extended_not_enforced(funded, table_for):
    table, users, (p, q) = await _seated_table(funded, table_for)
    hand = await _deal(table, [p, q])
    await db(hands_sweep)()
    outage = timedelta(minutes=10)
    with time_machine.travel(timezone.now() + outage):
        # a queued timer fires first after the restart: it must not enforce the deadline
        assert not await db(hand_expire)(hand_id=hand.pk, phase_seq=hand.phase_seq)
        report = await db(hands_sweep)()
    assert report["extended"] == 1 and report["expired"] == 0
    fresh = await db(Hand.objects.get)(pk=hand.pk)
    assert fresh.status == Hand.Status.ACTIVE
    assert fresh.deadline >= hand.deadline + outage - timedelta(seconds=5)
    assert fresh.state["deadline"] == pytest.approx(fresh.deadline.timestamp())
    await gather(p.close(), q.close())


async def test_too_many_messages_get_a_rate_limit_error_not_a_drop(funded, table_for, settings):
    settings.GAMES_WS_BURST = 5
    settings.GAMES_WS_RATE = 1
    table, users, (p, q) = await _seated_table(funded, table_for)
    for _ in range(12):
        await p.comm.send_json_to({"type": "ping"})
    replies = [await p.next_any(("pong", "error"), 5, lambda m: True) for _ in range(12)]
    assert any(r["type"] == "error" and r["code"] == "rate_limited" for r in replies)
    # The bucket's refill is the behaviour under test: one token a second at GAMES_WS_RATE = 1.
    # Awaited, so the consumer's loop runs on meanwhile.
    await asyncio.sleep(1.1)
    await p.comm.send_json_to({"type": "ping"})
    assert (await p.next_any(("pong", "error"), 5, lambda m: True))["type"] == "pong"
    await gather(p.close(), q.close())


async def test_a_player_who_leaves_mid_hand_is_cashed_out_when_it_ends(funded, table_for):
    from tests.games.live.test_thirteen_live import arrangement

    table, users, (p, q) = await _seated_table(funded, table_for)
    hand = await _deal(table, [p, q])
    reply = await q.request({"type": "leave"})
    assert reply["type"] == "ack" and reply["left"] is False
    for player in (p, q):
        await player.request({"type": "action", "action": arrangement(player.last["hand"]["view"])})
    settled = await db(Hand.objects.get)(pk=hand.pk)
    assert settled.status == Hand.Status.SETTLED
    assert not await db(Seat.objects.filter(table=table, user=users[1]).exists)()
    assert await db(selectors.table_money)(user=users[1], table_ref=table.wallet_ref) == 0
    wallet = await db(selectors.wallet_balance)(user=users[1])
    from tests.games.live.conftest import START_COINS

    assert wallet == START_COINS + settled.result["coins"][1]
    await gather(p.close(), q.close())


async def test_seats_below_the_minimum_are_removed_before_the_deal_and_told_why(funded, table_for):
    table, users, (p, q) = await _seated_table(funded, table_for)
    level = table.stake_level
    # q loses almost everything in a settlement (through the wallet, as a hand would)
    from wallet import services as wallet

    drop = level.min_buy_in - level.min_table_money + 1
    await db(wallet.wallet_settle_hand)(
        hand_ref="test", table_ref=table.wallet_ref, deltas={users[1].pk: -drop, users[0].pk: drop}, house={},
        idempotency_key=f"test-drop-{uuid.uuid4()}",
    )
    assert await db(hand_start_if_ready)(table_id=table.pk) is None
    # the notice, and the removal's broadcast showing it (the notice brings no snapshot of its own)
    notice = shown = None
    while notice is None or shown is None:
        message = await q.next_any(("notice", "state"), 20, lambda m: m["type"] == "notice" or m["you"] is None)
        notice, shown = (message, shown) if message["type"] == "notice" else (notice, message)
    assert notice["reason"] == "below_table_minimum"
    assert users[1].pk not in [s["user"] for s in shown["seats"]]
    assert not await db(Seat.objects.filter(table=table, user=users[1]).exists)()
    await gather(p.close(), q.close())


async def test_foreign_origin_is_refused(funded, table_for):
    from channels.testing import WebsocketCommunicator

    from config.asgi import application

    table = await db(table_for)("thirteen")
    bad = WebsocketCommunicator(application, f"/ws/tables/{table.pk}/", headers=[(b"origin", b"https://evil.example")])
    connected, _ = await bad.connect()
    assert not connected
    good = WebsocketCommunicator(application, f"/ws/tables/{table.pk}/", headers=[(b"origin", b"http://localhost"), (b"host", b"localhost")])
    connected, _ = await good.connect()
    assert connected
    await good.disconnect()


__all__ = ["hand_services"]


async def test_a_trio_game_our_outage_interrupted_is_voided_with_stakes_returned(funded, table_for):
    table, users, players = await _seated_table(funded, table_for, n=3, game="thirteen_trio")
    hand = await _deal(table, players)
    before = [await db(selectors.table_money)(user=u, table_ref=table.wallet_ref) for u in users]
    await db(hands_sweep)()
    with time_machine.travel(timezone.now() + timedelta(minutes=5)):
        report = await db(hands_sweep)()
    assert report["extended"] == 1
    fresh = await db(Hand.objects.get)(pk=hand.pk)
    assert fresh.status == Hand.Status.VOIDED and fresh.ledger_transaction_id is None
    assert [await db(selectors.table_money)(user=u, table_ref=table.wallet_ref) for u in users] == before
    await gather(*(p.close() for p in players))


async def test_a_frame_delivered_late_never_takes_a_connection_backwards(funded, table_for):
    from channels.layers import get_channel_layer

    from games.broadcast import frames_event, table_group

    table = await db(table_for)("thirteen")
    spectator = await WsPlayer(table.pk).connect()
    current = spectator.last["version"]
    stale = {**spectator.last, "version": current - 1, "marker": "stale"}
    fresh = {**spectator.last, "version": current + 1, "marker": "fresh"}
    layer = get_channel_layer()
    for frame in (stale, fresh):
        await layer.group_send(table_group(table.pk), frames_event(table.pk, {}, frame))
    got = await spectator.next("state")
    assert got["marker"] == "fresh"
    await spectator.close()
