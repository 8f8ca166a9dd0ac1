"""Sending to channel-layer groups from anywhere: a server's event loop, a worker thread of it
(``database_sync_to_async``), the embedded Celery worker's thread, or a separate worker process.

The in-memory channel layer (the embedded mode) lives on the server's event loop and must be
used from it: a thread hands its sends to that loop, which the consumers register.

A process with no event loop of its own (a Celery worker's child) sends on one long-lived loop
in a thread of its own (:func:`use_own_loop`): ``async_to_sync`` would run each send in a new
loop, and the Redis channel layer opens new connections for every loop it meets (a new client
and its handshake per broadcast, a fifth of a worker's CPU).

With channels_redis's pub/sub layer on one Redis (the distributed mode's default), a send from a
thread (a server's database thread, a worker's task) does not go through any event loop at
all: its messages are published in one pipelined round trip by a plain Redis client, as the
layer itself would publish them (its channel names, its serializer), with the caller's other
Redis writes of the same moment (:func:`group_send`'s ``also``; what it knows of the layer's
insides, its host and its groups' channel names, is in kernel/patches/channel_layer.py): no hop to the server's loop
and no publishes awaited one after the other, which cost about a tenth of an action's CPU
(bench/action_cpu.py).
"""

from __future__ import annotations

import asyncio
import logging
import os
import threading
from collections.abc import Callable
from functools import cache
from typing import Any

import redis.exceptions
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings

from kernel.redis_driver import driver_info

log = logging.getLogger(__name__)

_main_loop: asyncio.AbstractEventLoop | None = None
_loop_lock = threading.Lock()
_own_loop: tuple[int, asyncio.AbstractEventLoop] | None = None  # (the process, its sending loop)
_own_loop_wanted = False


def register_loop(loop: asyncio.AbstractEventLoop) -> None:
    """Remember the server's event loop: the in-memory channel layer must be used from it."""
    global _main_loop
    with _loop_lock:
        _main_loop = loop


def use_own_loop() -> None:
    """This process sends on a loop of its own from now on (called as a worker's child starts)."""
    global _own_loop_wanted
    _own_loop_wanted = True


def _sending_loop() -> asyncio.AbstractEventLoop:
    """The process's own sending loop, started on first use (and again in a forked child)."""
    global _own_loop
    with _loop_lock:
        if _own_loop is None or _own_loop[0] != os.getpid():
            loop = asyncio.new_event_loop()
            threading.Thread(target=loop.run_forever, name="channel-layer-sends", daemon=True).start()
            _own_loop = (os.getpid(), loop)
        return _own_loop[1]


def group_send(*messages: tuple[str, dict[str, Any]], also: Callable[[Any], None] | None = None) -> bool:
    """Send ``(group, message)`` pairs in order, in one hop to the event loop (from any thread),
    or in one pipelined round trip to Redis (the pub/sub layer, from a thread). ``also(pipe)``
    adds the caller's own commands to that pipeline when it goes to ``settings.REDIS_URL``;
    whether it did (if not, the caller writes them itself)."""
    layer = get_channel_layer()
    if layer is None:
        return False

    async def send_all() -> None:
        for group, message in messages:
            await layer.group_send(group, message)

    loop = _main_loop
    try:
        running = asyncio.get_running_loop()
    except RuntimeError:
        running = None
    direct = _direct_publisher(layer) if running is None else None
    if direct is not None:
        return _publish(direct, layer, messages, also)
    if loop is not None and loop.is_running() and running is not loop and _is_in_memory(layer):
        # A worker thread (the embedded Celery worker): hand the send to the server's loop.
        asyncio.run_coroutine_threadsafe(send_all(), loop).result(timeout=10)
        return False
    if _own_loop_wanted and running is None and not _is_in_memory(layer):
        try:
            asyncio.run_coroutine_threadsafe(send_all(), _sending_loop()).result(timeout=10)
        except redis.exceptions.ConnectionError:
            # The long-lived connection died with its Redis (a restart): the next command
            # reconnects. A message sent twice is harmless (a connection drops an old version).
            asyncio.run_coroutine_threadsafe(send_all(), _sending_loop()).result(timeout=10)
        return False
    async_to_sync(send_all)()
    return False


def _is_in_memory(layer: Any) -> bool:
    return type(layer).__name__ == "InMemoryChannelLayer"


@cache
def _direct_publisher(layer: Any) -> tuple[Any, str, bool] | None:
    """A plain Redis client for the pub/sub layer's one Redis, the prefix of the layer's group
    channels and whether that Redis is ``settings.REDIS_URL``; None for any other layer (or
    several hosts)."""
    # channels_redis is loaded only where a Redis layer is configured (never in the embedded mode)
    from kernel.patches.channel_layer import pubsub_publish_target

    found = pubsub_publish_target(layer)
    if found is None:
        return None
    address, group_prefix = found
    client = redis.Redis.from_url(address, socket_connect_timeout=2, socket_timeout=5, driver_info=driver_info())
    return client, group_prefix, address == settings.REDIS_URL


def _publish(direct: tuple[Any, str, bool], layer: Any, messages: tuple[tuple[str, dict[str, Any]], ...],
             also: Callable[[Any], None] | None) -> bool:
    """Publish to each group's channel as ``RedisPubSubLoopLayer.group_send`` does, in one
    pipeline with ``also``'s commands. A connection Redis dropped is retried by the client
    (a message sent twice is harmless: a connection drops an old version)."""
    client, group_prefix, same_redis = direct
    pipe = client.pipeline(transaction=False)
    for group, message in messages:
        pipe.publish(group_prefix + group, layer.serialize(message))
    added = also is not None and same_redis
    if also is not None and same_redis:
        also(pipe)
    results = pipe.execute(raise_on_error=False)
    for i, result in enumerate(results):
        if isinstance(result, Exception):
            if i < len(messages):
                raise result
            log.warning("a write beside a broadcast failed: %s", result)  # never breaks the broadcast
    return added
