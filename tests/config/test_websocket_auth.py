"""A WebSocket's user is the one its session cookie names, found once as it opens
(kernel.websocket.SocketAuthMiddleware); no cookie, an unknown one, or a session whose password
hash is stale is an anonymous spectator."""

from __future__ import annotations

from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from channels.testing import WebsocketCommunicator

from bench.harness.fleet import session_for
from kernel.websocket import SocketAuthMiddleware

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


class _Who(AsyncJsonWebsocketConsumer):
    async def connect(self) -> None:
        await self.accept()
        user = self.scope["user"]
        await self.send_json({"user": user.pk if user.is_authenticated else None})


async def _who(cookie: str | None) -> Any:
    headers = [(b"cookie", cookie.encode())] if cookie else []
    comm = WebsocketCommunicator(SocketAuthMiddleware(_Who.as_asgi()), "/ws/x/", headers=headers)
    connected, _ = await comm.connect()
    assert connected
    answer = await comm.receive_json_from()
    await comm.disconnect()
    return answer["user"]


async def test_the_session_cookie_names_the_sockets_user(make_user: Any) -> None:
    user = await database_sync_to_async(make_user)("ws-user")
    session = await database_sync_to_async(session_for)(user)
    assert await _who(f"sessionid={session}; other=1") == user.pk


async def test_no_cookie_or_an_unknown_session_is_anonymous() -> None:
    assert await _who(None) is None
    assert await _who("sessionid=no-such-session") is None


async def test_a_session_from_before_a_password_change_is_anonymous(make_user: Any) -> None:
    user = await database_sync_to_async(make_user)("ws-moved")
    session = await database_sync_to_async(session_for)(user)

    def change_password() -> None:
        user.set_password("another-pass-word-2026")
        user.save()

    await database_sync_to_async(change_password)()
    assert await _who(f"sessionid={session}") is None
