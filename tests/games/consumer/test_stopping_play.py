"""A ban, a log-out, a self-exclusion or a cool-off stops play within a second on every open socket
and every seat of the player (docs/RESPONSIBLE_PLAY.md "Stopping play", docs/PROTOCOL.md):
sockets opened before the change, signed in through their session cookie as a browser's are,
hear why in the player's language; a join or top-up through them is refused; a seat not in a hand
stands up at once, a seat in a hand plays it out and stands up at its settlement, its table money
back in the wallet; sockets opened after the change may not play."""

from __future__ import annotations

import asyncio
import json
import re
import uuid
from collections.abc import Callable
from importlib import import_module
from typing import Any

import pytest
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.contrib.auth.models import Group, Permission
from django.test import Client
from django.urls import reverse

from accounts.models import User
from games.adapters import engine
from games.models import Hand
from games.routing import websocket_urlpatterns as table_routes
from games.services.hands import hand_act, hand_start_if_ready
from kernel.websocket import SocketAuthMiddleware
from operations.services import staff_ban
from tables.models import Seat, Table
from tables.routing import websocket_urlpatterns as lobby_routes
from tests.games.live.helpers import WsPlayer, db
from wallet.selectors import table_money, wallet_balance

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

REASONS = ["banned", "logged_out", "self_excluded", "cooling_off"]
CJK = re.compile(r"[\u3400-\u9fff]")


def _session_cookie(user: User) -> str:
    client = Client()
    client.force_login(user)
    return f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}"


def _client(cookie: str) -> Client:
    client = Client()
    name, value = cookie.split("=", 1)
    client.cookies[name] = value
    return client


def _stop(reason: str, user: User, cookie: str) -> None:
    """Make the change as people make it: staff's ban action, the log-out button of the socket's
    own session, the responsible-play page's self-exclusion or cool-off."""
    if reason == "banned":
        staff = User.objects.create_user(username=f"staff-{uuid.uuid4().hex[:8]}", password="x" * 12, is_staff=True)
        staff.user_permissions.add(Permission.objects.get(codename="ban_player"))
        staff_ban(actor=staff, user=user, reason="cheating", request_key=uuid.uuid4().hex)
        return
    client = _client(cookie)
    if reason == "logged_out":
        response = client.post(reverse("logout"))
    elif reason == "self_excluded":
        response = client.post(reverse("responsible-limits"), {"exclude": "1", "period": "1d", "confirm": "on"})
    else:
        response = client.post(reverse("responsible-limits"), {"cool_off": "1h"})
    assert response.status_code == 302, response.content[:500]


class SessionPlayer(WsPlayer):
    """A table socket signed in by its session cookie, through the servers' own middleware."""

    def __init__(self, table_id: int, user: User, cookie: str) -> None:
        super().__init__(table_id, user)
        app = SocketAuthMiddleware(URLRouter(table_routes))
        self.comm = WebsocketCommunicator(app, f"/ws/tables/{table_id}/", headers=[(b"cookie", cookie.encode())])


class LobbySocket:
    def __init__(self, cookie: str) -> None:
        app = SocketAuthMiddleware(URLRouter(lobby_routes))
        self.comm = WebsocketCommunicator(app, "/ws/lobby/", headers=[(b"cookie", cookie.encode())])

    async def connect(self) -> LobbySocket:
        connected, _ = await self.comm.connect()
        assert connected
        assert json.loads(await self.comm.receive_from(timeout=10))["type"] == "lobby"
        return self

    async def next_error(self, timeout: float) -> dict[str, Any]:
        while True:
            message = json.loads(await self.comm.receive_from(timeout=timeout))
            if message["type"] == "error":
                return message


async def _told(socket: Any, reason: str, timeout: float = 1.0) -> dict[str, Any]:
    """The stop's frame on an open socket, within ``timeout`` seconds of the change."""
    if isinstance(socket, LobbySocket):
        frame = await socket.next_error(timeout)
    else:
        frame = await socket.next("error", timeout=timeout, where=lambda m: m["id"] is None)
    assert frame["code"] == reason and frame["message"]
    return frame


async def _closed_after_log_out(socket: Any) -> None:
    while True:
        output = await socket.comm.receive_output(timeout=1)
        if output["type"] == "websocket.close":
            assert output["code"] == 4401
            return


async def _seated_player(funded: Callable[..., User], table: Table, language: str = "en") -> tuple[User, str, SessionPlayer]:
    user = await db(funded)()
    await db(User.objects.filter(pk=user.pk).update)(language=language)
    user = await db(User.objects.get)(pk=user.pk)
    cookie = await db(_session_cookie)(user)
    player = await SessionPlayer(table.pk, user, cookie).connect()
    assert (await player.request({"type": "join", "buy_in": table.stake_level.min_buy_in * 2}))["type"] == "ack"
    return user, cookie, player


def _play_out(hand: Hand, users: list[User]) -> Hand:
    """The players still at the table play the engine's own moves until the hand ends."""
    for _ in range(20):
        hand.refresh_from_db()
        if hand.status != Hand.Status.ACTIVE:
            return hand
        awaited = engine(hand.game).awaiting(hand.state)
        user = next((u for u in users if hand.seat_of(u.pk) in awaited), None)
        assert user is not None, "the hand waits on the stopped player's seat"
        action = dict(engine(hand.game).auto_action(hand.state, hand.seat_of(user.pk)))
        hand_act(table_id=hand.table_id, user=user, action=action)
    raise AssertionError("the hand did not end")


async def _measured_stop(reason: str, user: User, cookie: str, sockets: list[Any]) -> list[float]:
    """Make the change, and how long after it each open socket was told (seconds)."""
    loop = asyncio.get_running_loop()
    await db(_stop)(reason, user, cookie)
    done = loop.time()
    delays = []
    for socket in sockets:
        await _told(socket, reason)
        delays.append(loop.time() - done)
    return delays


@pytest.mark.parametrize("reason", REASONS)
async def test_a_seat_not_in_a_hand_stands_up_at_once_and_every_open_socket_is_told_within_a_second(
    reason, funded, table_for
):
    table = await db(table_for)("thirteen")
    user, cookie, player = await _seated_player(funded, table, language="zh-hans")
    other_table = await WsPlayer(table.pk, user).connect()  # a second tab, its user held since it opened
    lobby = await LobbySocket(cookie).connect()
    start = await db(wallet_balance)(user=user) + table.stake_level.min_buy_in * 2

    delays = await _measured_stop(reason, user, cookie, [player, other_table, lobby])

    assert max(delays) < 1.0, delays
    print(f"{reason}: the last of 3 open sockets told {max(delays) * 1000:.0f} ms after the change")
    frame = player.messages[-1]
    assert CJK.search(frame["message"]), frame  # in the player's language
    assert not await db(Seat.objects.filter(table=table, user=user).exists)()
    assert await db(table_money)(user=user, table_ref=table.wallet_ref) == 0
    assert await db(wallet_balance)(user=user) == start  # every coin back in the wallet
    if reason == "logged_out":
        for socket in (player, other_table, lobby):
            await _closed_after_log_out(socket)
        return
    refused = await player.request({"type": "join", "buy_in": table.stake_level.min_buy_in})
    assert (refused["type"], refused["code"]) == ("error", reason)
    assert not await db(Seat.objects.filter(table=table, user=user).exists)()
    for socket in (player, other_table):
        await socket.close()
    await lobby.comm.disconnect()


@pytest.mark.parametrize("reason", REASONS)
async def test_a_seat_in_a_hand_plays_it_out_and_stands_up_at_its_settlement(reason, funded, table_for):
    table = await db(table_for)("thirteen")
    user, cookie, player = await _seated_player(funded, table)
    other, _cookie, _player = await _seated_player(funded, table)
    hand = await db(hand_start_if_ready)(table_id=table.pk)
    assert hand is not None and hand.seat_of(user.pk) is not None
    start = await db(wallet_balance)(user=user)
    money = await db(table_money)(user=user, table_ref=table.wallet_ref)

    await _measured_stop(reason, user, cookie, [player])

    seat = await db(Seat.objects.get)(table=table, user=user)
    assert seat.status == Seat.Status.LEAVING  # dealt in: played out first
    if reason == "logged_out":
        await _closed_after_log_out(player)
    else:
        refused = await player.request({"type": "top_up", "amount": 100})
        assert (refused["type"], refused["code"]) == ("error", reason)
    hand = await db(_play_out)(hand, [other])
    assert hand.status == Hand.Status.SETTLED
    coins = hand.result["coins"][hand.seat_of(user.pk)]
    assert not await db(Seat.objects.filter(table=table, user=user).exists)()
    assert await db(wallet_balance)(user=user) == start + money + coins
    assert await db(hand_start_if_ready)(table_id=table.pk) is None  # one player left: no deal


@pytest.mark.parametrize("reason", ["banned", "self_excluded", "cooling_off"])
async def test_a_barred_trio_player_is_not_dealt_the_next_game_of_the_set(reason, funded, table_for):
    """In the trio a leaver stays in the set to its end; a player who may no longer play is
    removed at the end of the game in play, and the set ends there."""
    table = await db(table_for)("thirteen_trio")
    seated = [await _seated_player(funded, table) for _ in range(3)]
    (user, cookie, player), others = seated[0], [s[0] for s in seated[1:]]
    hand = await db(hand_start_if_ready)(table_id=table.pk)
    assert hand is not None

    await _measured_stop(reason, user, cookie, [player])
    hand = await db(_play_out)(hand, others)

    assert hand.status == Hand.Status.SETTLED
    assert not await db(Seat.objects.filter(table=table, user=user).exists)()
    assert await db(table_money)(user=user, table_ref=table.wallet_ref) == 0
    assert (await db(Table.objects.get)(pk=table.pk)).carry == {}  # the set ended
    assert await db(hand_start_if_ready)(table_id=table.pk) is None


@pytest.mark.parametrize("reason", REASONS)
async def test_a_socket_opened_after_the_change_may_not_sit_down(reason, funded, table_for):
    table = await db(table_for)("thirteen")
    user, cookie, player = await _seated_player(funded, table)
    await _measured_stop(reason, user, cookie, [player])

    fresh = await SessionPlayer(table.pk, user, cookie).connect()
    refused = await fresh.request({"type": "join", "buy_in": table.stake_level.min_buy_in})

    signed_out = {"banned": "login_required", "logged_out": "login_required"}  # the session no longer signs in
    assert (refused["type"], refused["code"]) == ("error", signed_out.get(reason, reason))
    assert not await db(Seat.objects.filter(table=table, user=user).exists)()
    await fresh.close()


async def test_a_join_through_a_socket_whose_session_logged_out_is_refused_before_the_stop_arrives(
    funded, table_for
):
    table = await db(table_for)("thirteen")
    user = await db(funded)()
    cookie = await db(_session_cookie)(user)
    player = await SessionPlayer(table.pk, user, cookie).connect()
    await db(_end_session)(cookie)  # no stop message: as if it were still on its way

    refused = await player.request({"type": "join", "buy_in": table.stake_level.min_buy_in})

    assert (refused["type"], refused["code"]) == ("error", "logged_out")
    assert not await db(Seat.objects.filter(table=table, user=user).exists)()
    await _closed_after_log_out(player)


def _end_session(cookie: str) -> None:
    import_module(settings.SESSION_ENGINE).SessionStore(cookie.split("=", 1)[1]).delete()


def _also_a_player(user: User) -> None:
    user.groups.add(Group.objects.get_or_create(name=settings.PLAYERS_GROUP)[0])


async def test_the_admin_sites_own_log_out_stops_a_staff_members_play_as_the_sites_does(funded, table_for):
    table = await db(table_for)("thirteen")
    user = await db(funded)()
    await db(User.objects.filter(pk=user.pk).update)(is_staff=True)
    await db(_also_a_player)(user)  # staff sit only in the players group
    user = await db(User.objects.get)(pk=user.pk)
    cookie = await db(_session_cookie)(user)
    player = await SessionPlayer(table.pk, user, cookie).connect()
    assert (await player.request({"type": "join", "buy_in": table.stake_level.min_buy_in * 2}))["type"] == "ack"
    start = await db(wallet_balance)(user=user) + table.stake_level.min_buy_in * 2

    response = await db(_client(cookie).post)(reverse("admin:logout"))

    assert response.status_code == 302 and "_auth_user_id" not in response.wsgi_request.session
    await _told(player, "logged_out")
    await _closed_after_log_out(player)
    assert not await db(Seat.objects.filter(table=table, user=user).exists)()
    assert await db(wallet_balance)(user=user) == start  # every coin back in the wallet
