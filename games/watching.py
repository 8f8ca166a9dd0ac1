"""The table socket's part about who may connect and who watches (docs/PROTOCOL.md "Watchers",
docs/RULES.md "Private rooms"): a private room's socket is refused to a player without its pass;
a connection whose user holds no seat counts as a watcher, and every connection at the table that
asked for it (``?watchers=1`` on the socket's address) is told the count as it changes.

A mixin of ``games.consumers.TableConsumer``, kept apart so that the consumer stays about frames.
"""

from __future__ import annotations

import time
from typing import Any

from games import broadcast
from games.watchers import TTL, watcher_count, watcher_set, watchers_event, watchers_frame
from kernel.db_threads import in_db_thread
from tables.rooms import room_access

#: Close codes (docs/PROTOCOL.md "Close codes").
CLOSE_NO_TABLE = 4404
CLOSE_PRIVATE_ROOM = 4403


class WatchingMixin:
    """Needs the consumer's ``table_id``, ``user_id``, ``channel_name``, ``channel_layer``,
    ``close`` and ``_send``."""

    table_id: int
    user_id: int | None
    channel_name: str
    channel_layer: Any
    watching: bool = False  # this connection counts as one of the table's watchers
    watch_refreshed: float = 0.0
    watchers_told: int | None = None  # the last count this connection heard

    def _hears_watchers(self) -> bool:
        """Whether the client asked for the count (``?watchers=1``): a client that did not is
        never sent a frame it did not ask for."""
        query: bytes = self.scope.get("query_string", b"")  # type: ignore[attr-defined]
        return b"watchers=1" in query.split(b"&")

    async def _may_connect(self) -> bool:
        """Whether the table exists and this user may watch it; closes the socket (before it is
        accepted) when not: 4404 no such table, 4403 a private room without its pass."""
        access = await in_db_thread(room_access, table_id=self.table_id, user_id=self.user_id)
        if access == "missing":
            await self.close(code=CLOSE_NO_TABLE)  # type: ignore[attr-defined]
            return False
        if access == "private":
            await self.close(code=CLOSE_PRIVATE_ROOM)  # type: ignore[attr-defined]
            return False
        return True

    async def _watch(self, watching: bool) -> None:
        """This connection starts or stops watching; everyone at the table hears the new count.
        A seated connection is told the count once, as it connects."""
        if watching == self.watching:
            if not watching and self.watchers_told is None and self._hears_watchers():
                count = await watcher_count(table_id=self.table_id)
                if count is not None:
                    await self._tell_watchers(count)
            return
        self.watching = watching
        self.watch_refreshed = time.monotonic()
        count = await watcher_set(table_id=self.table_id, channel=self.channel_name, watching=watching)
        if count is not None:
            await self.channel_layer.group_send(broadcast.table_group(self.table_id),
                                                watchers_event(self.table_id, count))

    async def _watch_refresh(self) -> None:
        """A watcher's ping keeps its membership (every ``TTL`` / 3 s); a count that moved
        meanwhile (a server's watchers expired) is told to the table."""
        if not self.watching or time.monotonic() - self.watch_refreshed < TTL / 3:
            return
        self.watch_refreshed = time.monotonic()
        count = await watcher_set(table_id=self.table_id, channel=self.channel_name, watching=True)
        if count is not None and count != self.watchers_told:
            await self.channel_layer.group_send(broadcast.table_group(self.table_id),
                                                watchers_event(self.table_id, count))

    async def _watch_seated(self, seated: bool) -> None:
        """A frame showed whether this user holds a seat (or a hand) here: a watcher who sat
        down no longer counts, a player who left does."""
        if seated == self.watching:
            await self._watch(not seated)

    async def _tell_watchers(self, count: int) -> None:
        self.watchers_told = count
        if not self._hears_watchers():
            return
        await self._send(watchers_frame(self.table_id, count))  # type: ignore[attr-defined]

    async def table_watchers(self, event: dict[str, Any]) -> None:
        """The table's count of watchers changed."""
        if event["table"] == self.table_id:
            await self._tell_watchers(int(event["count"]))

    async def room_invite(self, event: dict[str, Any]) -> None:
        """An invitation to a private room, sent to the user's group: the table page shows it, as
        every page the player has open does (docs/PROTOCOL.md "Private rooms")."""
        await self._send({"type": "invite", "invite": event["invite"]})  # type: ignore[attr-defined]
