"""Test players: WebSocket clients over the real consumer, and a frame recorder."""

from __future__ import annotations

import asyncio
import json
import re
import uuid
from collections.abc import Callable
from typing import Any

from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator

from games.routing import websocket_urlpatterns

CARD = re.compile(r"^[2-9TJQKA][shcd]$")


def cards_in(value: Any) -> set[str]:
    """Every card string anywhere in a JSON value."""
    found: set[str] = set()
    if isinstance(value, str):
        if CARD.match(value):
            found.add(value)
    elif isinstance(value, dict):
        for v in value.values():
            found |= cards_in(v)
    elif isinstance(value, list):
        for v in value:
            found |= cards_in(v)
    return found


def sent_frames(sent: list[tuple[str, dict[str, Any]]]) -> list[tuple[int | None, dict[str, Any]]]:
    """Every state frame in recorded channel-layer messages (``games.broadcast.frames_event``),
    in order: ``(user id, frame)`` for a user's own frame, ``(None, frame)`` for the public one."""
    frames: list[tuple[int | None, dict[str, Any]]] = []
    for _group, message in sent:
        if message.get("type") == "table.frames":
            frames += [(user, json.loads(text)) for user, text, *_facts in message["private"]]
            frames.append((None, json.loads(message["public"])))
    return frames


class _WithUser:
    """ASGI wrapper that puts a user in the scope, as the session middleware would."""

    def __init__(self, app: Any, user: Any) -> None:
        self.app, self.user = app, user

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        from django.contrib.auth.models import AnonymousUser

        return await self.app({**scope, "user": self.user or AnonymousUser()}, receive, send)


class WsPlayer:
    def __init__(self, table_id: int, user: Any = None) -> None:
        self.table_id, self.user = table_id, user
        self.frames: list[dict[str, Any]] = []  # every state frame received
        self.messages: list[dict[str, Any]] = []  # everything received
        self.comm = WebsocketCommunicator(_WithUser(URLRouter(websocket_urlpatterns), user), f"/ws/tables/{table_id}/")

    async def connect(self) -> WsPlayer:
        connected, _ = await self.comm.connect()
        assert connected
        await self.next("state")
        return self

    async def close(self) -> None:
        await self.comm.disconnect()

    async def recv(self, timeout: float = 20) -> dict[str, Any]:
        message = json.loads(await self.comm.receive_from(timeout=timeout))
        self.messages.append(message)
        if message["type"] == "state":
            self.frames.append(message)
        return message

    async def next(self, kind: str, timeout: float = 20, where: Callable[[dict[str, Any]], bool] | None = None) -> dict[str, Any]:
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while True:
            message = await self.recv(timeout=max(0.05, end - loop.time()))
            if message["type"] == kind and (where is None or where(message)):
                return message

    async def request(self, payload: dict[str, Any], timeout: float = 20) -> dict[str, Any]:
        """Send a request with an id and return its ack or error."""
        payload = {"id": uuid.uuid4().hex, **payload}
        await self.comm.send_json_to(payload)
        return await self.next_reply(payload["id"], timeout)

    async def next_reply(self, request_id: str, timeout: float = 20) -> dict[str, Any]:
        return await self.next_any(("ack", "error"), timeout, lambda m: m.get("id") == request_id)

    async def next_any(self, kinds: tuple[str, ...], timeout: float, where: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while True:
            message = await self.recv(timeout=max(0.05, end - loop.time()))
            if message["type"] in kinds and where(message):
                return message

    async def poll(self, wait: float = 0.02) -> dict[str, Any] | None:
        """The next message if one arrives soon, else None (without stopping the consumer:
        a timed-out receive would cancel the application under test)."""
        if await self.comm.receive_nothing(timeout=wait, interval=0.005):
            return None
        return await self.recv()

    async def drain(self, wait: float = 0.3) -> None:
        """Read whatever is pending."""
        while await self.poll(wait) is not None:
            pass

    async def state(self) -> dict[str, Any]:
        await self.comm.send_json_to({"type": "sync"})
        return await self.next("state")

    @property
    def last(self) -> dict[str, Any]:
        return self.frames[-1]


async def gather(*coros: Any) -> list[Any]:
    return list(await asyncio.gather(*coros))


def db(fn: Callable[..., Any]) -> Callable[..., Any]:
    return database_sync_to_async(fn)


async def play_until_settled(players: list[WsPlayer], hand_id: int, timeout: float = 20) -> dict[str, Any]:
    """Every player answers its own frames with the bot policy until the hand is settled.
    Returns the settled frame seen by the first player."""
    import random

    from bench.harness.policy import choose

    rng = random.Random(hand_id)
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    sent: set[tuple[int, int, str]] = set()
    settled: dict[int, dict[str, Any]] = {}
    while len(settled) < len(players):
        assert loop.time() < end, "hand did not settle in time"
        for i, p in enumerate(players):
            if i in settled:
                continue
            message = await p.poll()
            frame = p.frames[-1] if p.frames else None
            if frame is None or not frame["hand"] or frame["hand"]["id"] != hand_id:
                continue
            if frame["hand"]["status"] != "active":
                settled[i] = frame
                continue
            if message is not None and message["type"] == "error":
                raise AssertionError(f"player {i} got an error: {message}")
            action = choose(frame, rng)
            view = frame["hand"]["view"]
            key = (i, view["phase_seq"], view["phase"])
            if action is not None and key not in sent:
                sent.add(key)
                await p.comm.send_json_to({"type": "action", "id": uuid.uuid4().hex, "action": action})
    return settled[0]
