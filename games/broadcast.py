"""Frames out to WebSocket clients, sent after the transaction that changed the table commits.

Private frames go to a per-user group (``user.<id>``) and carry that seat's view only; the
public frame (the spectators' view) goes to the table group (``table.<id>``). A connection of
a seated player ignores public frames of its table.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from typing import TYPE_CHECKING, Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from games.lobby import lobby_mark
from games.sent import sent_mark

if TYPE_CHECKING:
    from tables.models import Table

log = logging.getLogger(__name__)

_main_loop: asyncio.AbstractEventLoop | None = None
_loop_lock = threading.Lock()


def register_loop(loop: asyncio.AbstractEventLoop) -> None:
    """Remember the server's event loop: the in-memory channel layer must be used from it."""
    global _main_loop
    with _loop_lock:
        _main_loop = loop


def table_group(table_id: int) -> str:
    return f"table.{table_id}"


def user_group(user_id: int) -> str:
    return f"user.{user_id}"


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


def broadcast_table(table_id: int, held: Table | None = None) -> None:
    """Send every seated player their private frame and the table group the public one
    (``held``: the table as the change that committed left it, ``games.frames.table_frames``)."""
    from games.frames import table_frames

    try:
        private, public = table_frames(table_id, held)
    except Exception:  # a broadcast must never undo a committed change
        log.exception("could not build frames for table %s", table_id)
        return
    group_send(
        *((user_group(user_id), {"type": "table.frame", "table": table_id, "frame": frame})
          for user_id, frame in private.items()),
        (table_group(table_id), {"type": "table.frame", "table": table_id, "frame": public, "public": True}),
    )
    sent_mark(table_id, int(public["version"]))
    lobby_mark(table_id)  # the lobby hears of it within a second (games.lobby)


def notify_user(user_id: int, table_id: int, notice: dict[str, Any]) -> None:
    """A one-off notice to one player (removed from a seat, and why)."""
    group_send((user_group(user_id), {"type": "table.notice", "table": table_id, "notice": notice}))
