"""Frames out to WebSocket clients, sent after the transaction that changed the table commits.

Private frames go to a per-user group (``user.<id>``) and carry that seat's view only; the
public frame (the spectators' view) goes to the table group (``table.<id>``). A connection of
a seated player ignores public frames of its table.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from config.rows import json_text
from games.groups import group_send
from games.lobby import lobby_mark, lobby_mark_on
from games.sent import sent_mark, sent_mark_on

if TYPE_CHECKING:
    from tables.models import Table

log = logging.getLogger(__name__)


def table_group(table_id: int) -> str:
    return f"table.{table_id}"


def user_group(user_id: int) -> str:
    return f"user.{user_id}"


def broadcast_table(table_id: int, held: Table | None = None) -> None:
    """Send every seated player their private frame and the table group the public one
    (``held``: the table as the change that committed left it, ``games.frames.table_frames``)."""
    from games.frames import table_frames

    try:
        private, public = table_frames(table_id, held)
    except Exception:  # a broadcast must never undo a committed change
        log.exception("could not build frames for table %s", table_id)
        return
    version = int(public["version"])

    def marks(pipe: Any) -> None:
        sent_mark_on(pipe, table_id, version)
        lobby_mark_on(pipe, table_id)

    if not group_send(
        *((user_group(user_id), frame_event(table_id, frame, user_id=user_id)) for user_id, frame in private.items()),
        (table_group(table_id), frame_event(table_id, public)),
        also=marks,  # in the same round trip to Redis as the frames, where they go there
    ):
        sent_mark(table_id, version)
        lobby_mark(table_id)  # the lobby hears of it within a second (games.lobby)


def frame_event(table_id: int, frame: dict[str, Any], *, user_id: int | None = None) -> dict[str, Any]:
    """The channel-layer event carrying a state frame: its text, encoded once here (a server
    sends it as it is), and what the receiving connection needs to know of it without parsing
    it: its version, whether it is the user's own (seated or dealt in) and whether it shows the
    user's seat away. ``user_id`` None: the public frame, which seated connections ignore."""
    from games.frames import is_seated

    event: dict[str, Any] = {
        "type": "table.frame", "table": table_id, "version": int(frame["version"]),
        "text": json_text(frame),
    }
    if user_id is None:
        event["public"] = True
    else:
        event["seated"] = is_seated(frame)
        event["away"] = any(s["user"] == user_id and s["auto"] for s in frame.get("seats", ()))
    return event


def notify_user(user_id: int, table_id: int, notice: dict[str, Any]) -> None:
    """A one-off notice to one player (removed from a seat, and why)."""
    group_send((user_group(user_id), {"type": "table.notice", "table": table_id, "notice": notice}))
