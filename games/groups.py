"""Sending to channel-layer groups from anywhere: a server's event loop, a worker thread of it
(``database_sync_to_async``), the embedded Celery worker's thread, or a separate worker process.

The in-memory channel layer (the embedded mode) lives on the server's event loop and must be
used from it: a thread hands its sends to that loop, which the consumers register.

A process with no event loop of its own (a Celery worker's child) sends on one long-lived loop
in a thread of its own (:func:`use_own_loop`): ``async_to_sync`` would run each send in a new
loop, and the Redis channel layer opens new connections for every loop it meets (a new client
and its handshake per broadcast, a fifth of a worker's CPU).
"""

from __future__ import annotations

import asyncio
import os
import threading
from typing import Any

import redis.exceptions
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

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


def group_send(*messages: tuple[str, dict[str, Any]]) -> None:
    """Send ``(group, message)`` pairs in order, in one hop to the event loop (from any thread)."""
    layer = get_channel_layer()
    if layer is None:
        return

    async def send_all() -> None:
        for group, message in messages:
            await layer.group_send(group, message)

    loop = _main_loop
    try:
        running = asyncio.get_running_loop()
    except RuntimeError:
        running = None
    if loop is not None and loop.is_running() and running is not loop and _is_in_memory(layer):
        # A worker thread (the embedded Celery worker): hand the send to the server's loop.
        asyncio.run_coroutine_threadsafe(send_all(), loop).result(timeout=10)
        return
    if _own_loop_wanted and running is None and not _is_in_memory(layer):
        try:
            asyncio.run_coroutine_threadsafe(send_all(), _sending_loop()).result(timeout=10)
        except redis.exceptions.ConnectionError:
            # The long-lived connection died with its Redis (a restart): the next command
            # reconnects. A message sent twice is harmless (a connection drops an old version).
            asyncio.run_coroutine_threadsafe(send_all(), _sending_loop()).result(timeout=10)
        return
    async_to_sync(send_all)()


def _is_in_memory(layer: Any) -> bool:
    return type(layer).__name__ == "InMemoryChannelLayer"
