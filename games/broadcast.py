"""Frames out to WebSocket clients, sent after the transaction that changed the table commits.

Every change is one channel-layer message to the table group (``table.<id>``): each seated (or
dealt-in) player's private frame, which carries that seat's view only, and the public frame
(the spectators' view), each encoded once here. A connection sends its own user's private
frame if there is one, the public frame otherwise; nothing else of the message leaves the
server. One message per change, not one per frame, is what each server reads from Redis per
change: every server holding a socket at the table reads and decodes each message. The user group
(``user.<id>``) carries one-off notices to a player.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from accounts.sockets import stop_event, user_group
from games.frames import table_frames
from games.groups import group_send
from games.lobby import lobby_mark, lobby_mark_on
from games.sent import sent_mark, sent_mark_on
from kernel.rows import json_text

if TYPE_CHECKING:
    from tables.models import Table

log = logging.getLogger(__name__)


def table_group(table_id: int) -> str:
    return f"table.{table_id}"


def broadcast_table(
    table_id: int, held: Table | None = None, seat_rows: Sequence[tuple[Any, ...]] | None = None
) -> None:
    """Send every seated player their private frame and the table group the public one
    (``held``, ``seat_rows``: the table and its seats as the change that committed left them,
    ``games.frames.table_frames``)."""
    try:
        private, public = table_frames(table_id, held, seat_rows)
    except Exception:  # a broadcast must never undo a committed change
        log.exception("could not build frames for table %s", table_id)
        return
    version = int(public["version"])

    def marks(pipe: Any) -> None:
        sent_mark_on(pipe, table_id, version)
        lobby_mark_on(pipe, table_id)

    # in the same round trip to Redis as the frames, where they go there
    if not group_send((table_group(table_id), frames_event(table_id, private, public)), also=marks):
        sent_mark(table_id, version)
        lobby_mark(table_id)  # the lobby hears of it within a second (games.lobby)


def frames_event(table_id: int, private: dict[int, dict[str, Any]], public: dict[str, Any]) -> dict[str, Any]:
    """The channel-layer event carrying a change's state frames: the public frame's text, and
    per seated (or dealt-in) user ``[user id, text, whether it shows the user's seat away, the
    user's table seat or None]``, what a connection needs to know without parsing a frame. Every
    frame of one change has the same version."""
    return {
        "type": "table.frames", "table": table_id, "version": int(public["version"]), "public": json_text(public),
        "private": [
            [user_id, json_text(frame), any(s["user"] == user_id and s["auto"] for s in frame.get("seats", ())),
             frame.get("you")]
            for user_id, frame in private.items()
        ],
    }


def notify_user(user_id: int, table_id: int, notice: dict[str, Any]) -> None:
    """A one-off notice to one player (removed from a seat, and why)."""
    group_send((user_group(user_id), {"type": "table.notice", "table": table_id, "notice": notice}))


def notify_stop(user_id: int, reason: str) -> None:
    """Tell every open socket of the player, on every server, that play stopped and why
    (``accounts.sockets``)."""
    group_send((user_group(user_id), stop_event(reason)))
