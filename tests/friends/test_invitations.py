"""An invitation reaches the friend's lobby socket as a ``friend_invite`` frame, in the friend's
language, with the table's id, name and link and nothing else of it; a lobby socket is online
while it is open (friends.online)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.db import transaction

from accounts.models import User
from friends.invitations import invite_send
from friends.online import online_among
from tables.routing import websocket_urlpatterns
from tests.factories import table_at

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


def _setup() -> tuple[Any, Any, Any]:
    host = User.objects.create_user(username="host", password="x" * 12, display_name="阿主")
    guest = User.objects.create_user(username="guest", password="x" * 12, language="zh-hant")
    return host, guest, table_at("thirteen")


async def test_a_friends_lobby_hears_the_invitation_and_is_online_while_open() -> None:
    host, guest, table = await sync_to_async(_setup)()
    comm = WebsocketCommunicator(URLRouter(websocket_urlpatterns), "/ws/lobby/")
    comm.scope["user"] = guest
    connected, _ = await comm.connect()
    assert connected
    assert json.loads(await comm.receive_from(timeout=10))["type"] == "lobby"
    assert await sync_to_async(online_among)(user_ids=[host.pk, guest.pk]) == {guest.pk}

    def invite() -> None:
        with transaction.atomic():
            invite_send(sender=host, recipient_id=guest.pk, table=table)

    await sync_to_async(invite)()
    frame = json.loads(await comm.receive_from(timeout=10))
    assert frame["type"] == "friend_invite"
    assert set(frame) == {"type", "sender", "table", "table_name", "url", "message", "join"}
    assert frame["sender"] == "阿主" and frame["table"] == table.pk and frame["url"] == f"/tables/{table.pk}/"
    assert frame["message"] == f"阿主 邀請您到其牌桌 {table.pk}。" and frame["join"] == "加入牌桌"
    await comm.disconnect()
    assert await sync_to_async(online_among)(user_ids=[guest.pk]) == set()
