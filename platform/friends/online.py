"""Who is online: a player with an open lobby or table socket (docs/FRIENDS.md "Online").

The sockets say so themselves, on the event loop and never through the database, so live play
runs no statement more for it:

1. A signed-in socket enters on connect (:func:`online_enter`) and leaves on close
   (:func:`online_leave`).
2. Embedded (one process) the open sockets are a dict in this process: exact.
3. Distributed, each player has a sorted set in Redis of their open sockets, each scored by
   when it expires (``ONLINE_TTL`` seconds on): entering adds the socket, leaving removes it,
   and each server process refreshes the sockets it holds every ``ONLINE_REFRESH`` seconds in
   one pipeline, so a killed server's sockets expire by themselves.
4. :func:`online_among` reads which of some players have a socket not yet expired: one
   pipeline, one round trip. Redis out of reach reads as nobody online, and a socket entering
   or refreshing then is logged and otherwise ignored: presence among friends never stops play.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from dataclasses import dataclass, field
from functools import cache
from typing import Any

import redis
from django.conf import settings

from kernel.loop_local import LoopLocal
from kernel.loop_redis import loop_client
from kernel.redis_driver import driver_info

log = logging.getLogger(__name__)

ONLINE_TTL = 30
ONLINE_REFRESH = 10
_ERRORS = (redis.exceptions.RedisError, OSError, asyncio.TimeoutError)

#: Embedded: socket channel -> its player (every socket of the one process).
_local: dict[str, int] = {}
_local_lock = threading.Lock()


@dataclass
class _Held:
    """The sockets of one event loop (distributed): channel -> player, and the refreshing task."""

    sockets: dict[str, int] = field(default_factory=dict)
    task: asyncio.Task[None] | None = None


_loops: LoopLocal[_Held] = LoopLocal(_Held)


def _key(user_id: int) -> str:
    return f"{settings.GAMES_LIMITS_PREFIX}:online:{user_id}"


@cache
def _client() -> Any:
    return redis.Redis.from_url(settings.REDIS_URL, socket_connect_timeout=1, socket_timeout=1,
                                driver_info=driver_info())


def _held() -> _Held:
    return _loops.get()


async def _mark(sockets: dict[str, int]) -> None:
    """Refresh (or add) these sockets' entries in one pipeline."""
    if not sockets:
        return
    expires = time.time() + ONLINE_TTL
    pipe = loop_client(settings.REDIS_URL, timeout=1).pipeline(transaction=False)
    for channel, user_id in sockets.items():
        pipe.zadd(_key(user_id), {channel: expires})
        pipe.expire(_key(user_id), ONLINE_TTL + 1)
    try:
        await pipe.execute()
    except _ERRORS as exc:
        log.warning("online: Redis unreachable (%s)", type(exc).__name__)


async def _refresh_while_held(held: _Held) -> None:
    while held.sockets:
        await asyncio.sleep(ONLINE_REFRESH)  # the refresh period itself, not a wait for an event
        await _mark(dict(held.sockets))


async def online_enter(*, user_id: int, channel: str) -> None:
    """A signed-in socket of ``user_id`` opened."""
    if not settings.REDIS_URL:
        with _local_lock:
            _local[channel] = user_id
        return
    held = _held()
    held.sockets[channel] = user_id
    if held.task is None or held.task.done():
        held.task = asyncio.get_running_loop().create_task(_refresh_while_held(held))
    await _mark({channel: user_id})


async def online_leave(*, user_id: int, channel: str) -> None:
    """A signed-in socket of ``user_id`` closed."""
    if not settings.REDIS_URL:
        with _local_lock:
            _local.pop(channel, None)
        return
    held = _held()
    held.sockets.pop(channel, None)
    if not held.sockets and held.task is not None:
        held.task.cancel()
        held.task = None
    try:
        await loop_client(settings.REDIS_URL, timeout=1).zrem(_key(user_id), channel)
    except _ERRORS as exc:
        log.warning("online: Redis unreachable (%s)", type(exc).__name__)


def online_among(*, user_ids: list[int]) -> set[int]:
    """Which of ``user_ids`` have an open socket now."""
    if not user_ids:
        return set()
    if not settings.REDIS_URL:
        with _local_lock:
            return set(user_ids) & set(_local.values())
    pipe = _client().pipeline(transaction=False)
    now = time.time()
    for user_id in user_ids:
        pipe.zcount(_key(user_id), now, "+inf")
    try:
        counts = pipe.execute()
    except _ERRORS as exc:
        log.warning("online: Redis unreachable (%s)", type(exc).__name__)
        return set()
    return {user_id for user_id, count in zip(user_ids, counts, strict=True) if int(count) > 0}
