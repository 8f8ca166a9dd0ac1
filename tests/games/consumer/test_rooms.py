"""A private room over the sockets (docs/PROTOCOL.md "Private rooms"): only pass holders connect,
the owner starts it and the players see it start, an invitation reaches the invitee's lobby at
once, and every room request is answered once, in the player's language."""

from __future__ import annotations

import json
from typing import Any

import pytest
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.utils import translation
from django.utils.translation import gettext as in_language

from games.routing import websocket_urlpatterns
from tables import rooms
from tables.models import StakeLevel
from tables.routing import websocket_urlpatterns as lobby_routes
from tests.factories import ensure_stake_levels
from tests.games.live.helpers import WsPlayer, _WithUser, db, gather

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


def _open_room(owner: Any) -> Any:
    ensure_stake_levels()
    level = StakeLevel.objects.filter(game="thirteen", mode="").order_by("unit").first()
    assert level is not None
    return rooms.room_open(owner=owner, level_id=level.pk)


async def _refused(table_id: int, user: Any) -> int:
    comm = WebsocketCommunicator(_WithUser(URLRouter(websocket_urlpatterns), user), f"/ws/tables/{table_id}/")
    connected, code = await comm.connect()
    assert not connected
    return int(code)


async def test_a_room_s_socket_is_refused_to_a_player_without_its_pass(funded):
    owner, stranger = await db(funded)(), await db(funded)()
    room = await db(_open_room)(owner)
    assert await _refused(room.pk, stranger) == 4403
    assert await _refused(room.pk, None) == 4403
    assert await _refused(room.pk + 999, None) == 4404
    await db(rooms.room_enter)(code=str(room.room_code), user=stranger)
    guest = await WsPlayer(room.pk, stranger).connect()
    assert guest.last["room"] == {"code": room.room_code, "owner": owner.pk, "started": False}
    await guest.close()


async def test_the_owner_starts_the_room_over_the_socket_and_the_players_see_the_deal(funded):
    owner_user, guest_user = await db(funded)(), await db(funded)()
    room = await db(_open_room)(owner_user)
    await db(rooms.room_enter)(code=str(room.room_code), user=guest_user)
    owner, guest = await WsPlayer(room.pk, owner_user).connect(), await WsPlayer(room.pk, guest_user).connect()
    buy_in = room.stake_level.min_buy_in
    for p in (owner, guest):
        assert (await p.request({"type": "join", "buy_in": buy_in}))["type"] == "ack"
    refused = await guest.request({"type": "room_start"})
    with translation.override("zh-hans"):
        assert refused["code"] == "not_owner" and refused["message"] == in_language("Only the room's owner may do that.")
    ack = await owner.request({"type": "room_start"})
    assert ack["type"] == "ack" and ack["started"] is True
    frame = await guest.next("state", where=lambda f: f["hand"] is not None and f["hand"]["status"] == "active")
    assert frame["room"]["started"] is True
    await gather(owner.close(), guest.close())


async def test_an_invitation_reaches_the_invitee_s_lobby_at_once(funded):
    owner_user, invitee = await db(funded)(), await db(funded)("mei")
    room = await db(_open_room)(owner_user)
    lobby = WebsocketCommunicator(_WithUser(URLRouter(lobby_routes), invitee), "/ws/lobby/")
    assert (await lobby.connect())[0]
    first = json.loads(await lobby.receive_from(timeout=10))
    assert first["type"] == "lobby" and all(t["id"] != room.pk for t in first["tables"])  # never listed
    owner = await WsPlayer(room.pk, owner_user).connect()
    missing = await owner.request({"type": "room_invite", "name": "nobody-by-this-name"})
    assert missing["code"] == "no_player"
    ack = await owner.request({"type": "room_invite", "name": "MEI"})
    assert ack["type"] == "ack" and ack["invited"] == "Mei"
    notice = json.loads(await lobby.receive_from(timeout=10))
    assert notice["type"] == "invite" and notice["invite"]["table"] == room.pk
    assert notice["invite"]["code"] == room.room_code and notice["invite"]["inviter"] == owner_user.shown_name
    await owner.close()
    await lobby.disconnect()


@pytest.mark.parametrize("payload", [
    {"type": "room_start"}, {"type": "room_close"}, {"type": "room_remove", "seat": 1},
])
async def test_room_requests_at_a_public_table_are_refused_once(payload, funded, table_for):
    table = await db(table_for)("thirteen")
    player = await WsPlayer(table.pk, await db(funded)()).connect()
    reply = await player.request(payload)
    assert reply["type"] == "error" and reply["code"] == "not_room" and reply["message"]
    await player.close()


@pytest.mark.parametrize("payload", [
    {"type": "room_invite"}, {"type": "room_invite", "name": ""}, {"type": "room_invite", "name": "x" * 41},
    {"type": "room_invite", "name": 7}, {"type": "room_remove"}, {"type": "room_remove", "seat": "a"},
])
async def test_malformed_room_requests_are_bad_messages(payload, funded, table_for):
    table = await db(table_for)("thirteen")
    player = await WsPlayer(table.pk, await db(funded)()).connect()
    reply = await player.request(payload)
    assert reply["type"] == "error" and reply["code"] == "bad_message"
    await player.close()


async def test_an_invitation_reaches_the_invitee_s_table_socket_too(funded, table_for):
    owner_user, invitee = await db(funded)(), await db(funded)("lan")
    room = await db(_open_room)(owner_user)
    public = await db(table_for)("thirteen")
    at_table = await WsPlayer(public.pk, invitee).connect()  # the invitee plays elsewhere
    owner = await WsPlayer(room.pk, owner_user).connect()
    assert (await owner.request({"type": "room_invite", "name": "LAN"}))["type"] == "ack"
    notice = await at_table.next("invite")
    assert notice["invite"]["table"] == room.pk and notice["invite"]["code"] == room.room_code
    assert notice["invite"]["inviter"] == owner_user.shown_name
    await gather(owner.close(), at_table.close())


async def _lobby(user: Any, path: str) -> WebsocketCommunicator:
    comm = WebsocketCommunicator(_WithUser(URLRouter(lobby_routes), user), path)
    assert (await comm.connect())[0]
    return comm


async def test_a_page_s_notices_socket_hears_invitations_and_no_table(funded, table_for):
    owner_user, invitee = await db(funded)(), await db(funded)("ning")
    room = await db(_open_room)(owner_user)
    await db(table_for)("thirteen")  # an open public table the lobby would list
    notices = await _lobby(invitee, "/ws/lobby/?notices=1")
    assert await notices.receive_nothing(timeout=0.3)  # no table list
    owner = await WsPlayer(room.pk, owner_user).connect()
    assert (await owner.request({"type": "room_invite", "name": "ning"}))["type"] == "ack"
    notice = json.loads(await notices.receive_from(timeout=10))
    assert notice["type"] == "invite" and notice["invite"]["table"] == room.pk
    await owner.close()
    await notices.disconnect()


async def test_a_notices_socket_is_refused_to_a_signed_out_visitor():
    comm = WebsocketCommunicator(_WithUser(URLRouter(lobby_routes), None), "/ws/lobby/?notices=1")
    connected, _code = await comm.connect()
    assert not connected
