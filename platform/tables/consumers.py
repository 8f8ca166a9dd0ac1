"""The lobby WebSocket: the open tables on connect, then at most one message a second with the
summaries of the tables changed since the last. Opened as ``/ws/lobby/?notices=1`` (by every
signed-in page that has no socket of its own, static/js/ct-notices.js) it sends a player's
notices only — invitations, the stop of play — and no table.

Live play (``games.lobby``) sends them to the group ``tables.groups.LOBBY_GROUP``; nothing
imports this module but the routing, and nothing here imports live play."""

from __future__ import annotations

import json
from typing import Any

from django.utils.translation import gettext as _

from accounts.sockets import CLOSE_LOGGED_OUT, stop_frame, user_group
from friends.notices import invite_frame
from friends.online import online_enter, online_leave
from kernel import metrics
from kernel.db_threads import in_db_thread
from kernel.websocket import LocalizedWebsocketConsumer
from tables.groups import LOBBY_GROUP
from tables.selectors import table_list_open, table_summary

#: The largest frame answered as ``read_only`` (the table socket's limit; the lobby reads none).
MAX_FRAME_CHARS = 4096


def _tables() -> list[dict[str, Any]]:
    return [table_summary(t) for t in table_list_open()]


def notices_only(query: bytes) -> bool:
    """Whether the page asked for its player's notices only (``?notices=1`` in the socket's query)."""
    return b"notices=1" in query.split(b"&")


class LobbyConsumer(LocalizedWebsocketConsumer):
    counted: bool = False  # this connection was accepted and counts as open
    user_id: int | None = None  # the signed-in user's id, None for an anonymous visitor
    tables: bool = True  # it hears the tables (False: a page's notices only)

    async def connect(self) -> None:
        user = self.scope.get("user")
        user_id = user.pk if user is not None and user.is_authenticated else None
        self.tables = not notices_only(self.scope.get("query_string", b""))
        if not self.tables and user_id is None:
            await self.close(code=CLOSE_LOGGED_OUT)  # nobody's notices to hear
            return
        await self.accept()
        self.counted = True
        metrics.socket_opened("lobby")
        if self.tables:
            await self.channel_layer.group_add(LOBBY_GROUP, self.channel_name)
        if user_id is not None:
            self.user_id = user_id
            await self.channel_layer.group_add(user_group(user_id), self.channel_name)
            await online_enter(user_id=user_id, channel=self.channel_name)
        if self.tables:
            tables = await in_db_thread(_tables)
            await self.send(text_data=json.dumps({"type": "lobby", "tables": tables}))

    async def disconnect(self, code: int) -> None:
        if self.counted:
            self.counted = False
            metrics.socket_closed("lobby")
        if self.tables:
            await self.channel_layer.group_discard(LOBBY_GROUP, self.channel_name)
        if self.user_id is not None:
            await self.channel_layer.group_discard(user_group(self.user_id), self.channel_name)
            await online_leave(user_id=self.user_id, channel=self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """Every frame gets one error frame and nothing else happens: the lobby only sends.
        Nothing of the frame is decoded, so no frame can fail here (docs/PROTOCOL.md)."""
        if text_data is None:
            code, message = "bad_message", _("binary frames are not accepted; send JSON text")
        elif len(text_data) > MAX_FRAME_CHARS:
            code, message = "too_large", _("message too large (over %(n)d bytes)") % {"n": MAX_FRAME_CHARS}
        else:
            code, message = "read_only", _("The lobby only sends.")
        await self.send(text_data=json.dumps({"type": "error", "code": code, "message": message}))

    async def lobby_tables(self, event: dict[str, Any]) -> None:
        await self.send(text_data=json.dumps({"type": "tables", "tables": event["tables"]}))

    async def table_notice(self, event: dict[str, Any]) -> None:
        """A seat's notice, sent to its user's group: the table page shows it, the lobby need not."""

    async def friend_invite(self, event: dict[str, Any]) -> None:
        """A friend invites this player to their table (``friends.invitations``)."""
        await self.send(text_data=json.dumps(invite_frame(event)))

    async def room_invite(self, event: dict[str, Any]) -> None:
        """An invitation to a private room (``tables.rooms.room_invite``), sent to the user's group."""
        await self.send(text_data=json.dumps({"type": "invite", "invite": event["invite"]}))

    async def account_stop(self, event: dict[str, Any]) -> None:
        """The player may no longer play (``accounts.sockets``): told why; after a log-out the
        socket closes."""
        await self.send(text_data=json.dumps(stop_frame(event["reason"])))
        if event["reason"] == "logged_out":
            await self.close(code=CLOSE_LOGGED_OUT)
