"""Sending to channel-layer groups from anywhere: a server's event loop, a worker thread of it
(``database_sync_to_async``), the embedded Celery worker's thread, or a separate worker process.

The in-memory channel layer (the embedded mode) lives on the server's event loop and must be
used from it: a thread hands its sends to that loop, which the consumers register.
"""

from __future__ import annotations

import asyncio
import threading
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

_main_loop: asyncio.AbstractEventLoop | None = None
_loop_lock = threading.Lock()


def register_loop(loop: asyncio.AbstractEventLoop) -> None:
    """Remember the server's event loop: the in-memory channel layer must be used from it."""
    global _main_loop
    with _loop_lock:
        _main_loop = loop


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
    async_to_sync(send_all)()


def _is_in_memory(layer: Any) -> bool:
    return type(layer).__name__ == "InMemoryChannelLayer"
