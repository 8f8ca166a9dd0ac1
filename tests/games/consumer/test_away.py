"""A socket that closes marks its seat gone until its next heartbeat: a hand that then ends with
the seat auto-played sits it out, without waiting out the presence window (docs/RULES.md "Away
players")."""

from __future__ import annotations

from typing import Any

import pytest

from games.models import Hand
from games.sent import sent_reset
from games.services.hands import hand_start_if_ready
from tables.models import Seat
from tests.factories import hand_time_out
from tests.games.live.helpers import WsPlayer, db

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


@pytest.fixture(autouse=True)
def _long_window(settings: Any) -> None:
    """Only the closed socket can make a seat gone here: the presence window outlasts the test."""
    settings.GAMES_PRESENCE_TIMEOUT = 3600
    sent_reset()


def _dealt(table_id: int) -> Hand:
    return hand_start_if_ready(table_id=table_id) or Hand.objects.get(table_id=table_id, status=Hand.Status.ACTIVE)


async def _seated_pair(table_for: Any, funded: Any) -> tuple[Any, WsPlayer, WsPlayer]:
    table = await db(table_for)("thirteen")
    ann, bob = await db(funded)(), await db(funded)()
    players = [await WsPlayer(table.pk, user).connect() for user in (ann, bob)]
    for player in players:
        reply = await player.request({"type": "join", "buy_in": table.stake_level.min_buy_in * 2})
        assert reply["type"] == "ack", reply
    return table, players[0], players[1]


def _away(user_id: int) -> Any:
    return lambda m: any(s["user"] == user_id and s["status"] == "away" for s in m["seats"])


async def test_a_socket_closing_during_a_hand_sits_its_seat_out_when_the_hand_ends(funded: Any, table_for: Any):
    table, ann, bob = await _seated_pair(table_for, funded)
    hand = await db(_dealt)(table.pk)
    await bob.close()  # the tab closed in the middle of the hand
    ended = await db(hand_time_out)(hand.pk, [ann.user.pk])
    assert ended.status == Hand.Status.SETTLED
    frame = await ann.next("state", where=_away(bob.user.pk))
    assert next(s for s in frame["seats"] if s["user"] == ann.user.pk)["status"] == "playing"
    assert await db(Seat.objects.get)(table=table, user=bob.user) is not None  # seated, sitting out
    await ann.close()


async def test_a_player_who_reopens_the_table_before_the_hand_ends_stays_in(funded: Any, table_for: Any):
    table, ann, bob = await _seated_pair(table_for, funded)
    hand = await db(_dealt)(table.pk)
    await bob.close()
    bob = await WsPlayer(table.pk, bob.user).connect()  # a reload: a heartbeat after the close
    ended = await db(hand_time_out)(hand.pk, [ann.user.pk])
    assert ended.status == Hand.Status.SETTLED
    seat = await db(Seat.objects.get)(table=table, user=bob.user)
    assert seat.status == Seat.Status.PLAYING
    for player in (ann, bob):
        await player.close()
