"""The table socket's part about who may connect and who watches (docs/PROTOCOL.md "Watchers",
docs/RULES.md "Private rooms"): a private room's socket is refused to a player without its pass;
a connection whose user holds no seat counts as a watcher, and every connection at the table that
asked for it (``?watchers=1`` on the socket's address) is told the count as it changes, within
``games.watchers.TELL_WITHIN`` seconds: a server applies the changes its connections made to a
table meanwhile together (a player's connect and join cancel out; a room's players sitting down
together are one), then tells the count when it is not the one the table last heard.

A mixin of ``games.consumers.TableConsumer``, kept apart so that the consumer stays about frames.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

from games import broadcast
from games.watchers import TELL_WITHIN, TTL, watcher_count, watchers_apply, watchers_event, watchers_frame
from kernel.db_threads import in_db_thread
from kernel.loop_local import LoopLocal
from tables.rooms import room_access

#: Close codes (docs/PROTOCOL.md "Close codes").
CLOSE_NO_TABLE = 4404
CLOSE_PRIVATE_ROOM = 4403

log = logging.getLogger(__name__)


class _Telling:
    """One event loop's (a server's) changes to tables' watchers not applied yet, and the count
    each table last heard (every connection here hears every server's tell)."""

    def __init__(self) -> None:
        self.changes: dict[int, dict[str, bool]] = {}  # table -> connection -> watching
        self.heard: dict[int, int] = {}
        self.unheard: set[int] = set()  # tables with a connection here not told any count yet


_loops: LoopLocal[_Telling] = LoopLocal(_Telling)


def _telling() -> _Telling:
    return _loops.get()


def _watch_later(table_id: int, channel: str, watching: bool, layer: Any, *, unheard: bool = False) -> None:
    """The connection's membership applied within ``TELL_WITHIN`` seconds, with every other
    change this server makes to the table meanwhile; ``unheard``: the connection waits for its
    first count, so the count is told even if the table heard it already."""
    state = _telling()
    if unheard:
        state.unheard.add(table_id)
    changes = state.changes.get(table_id)
    if changes is None:
        changes = state.changes[table_id] = {}
        asyncio.get_running_loop().create_task(_apply_later(state, table_id, layer))
    changes[channel] = watching


async def _apply_later(state: _Telling, table_id: int, layer: Any) -> None:
    """After ``TELL_WITHIN`` seconds, the table's changes applied, and its count told to every
    connection at it unless it is the count they last heard (and none of them waits for its
    first)."""
    try:
        await asyncio.sleep(TELL_WITHIN)
    finally:
        changes = state.changes.pop(table_id, {})
    unheard = table_id in state.unheard
    state.unheard.discard(table_id)
    count = await watchers_apply(table_id=table_id, changes=changes)
    if count is None or (count == state.heard.get(table_id) and not unheard):
        return
    state.heard[table_id] = count
    try:
        await layer.group_send(broadcast.table_group(table_id), watchers_event(table_id, count))
    except Exception as exc:  # noqa: BLE001 - a watcher count never fails a socket
        log.warning("could not tell table %s its watchers: %s", table_id, exc)


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
        _watch_later(self.table_id, self.channel_name, watching, self.channel_layer,
                     unheard=self.watchers_told is None and self._hears_watchers())

    async def _watch_refresh(self) -> None:
        """A watcher's ping keeps its membership (every ``TTL`` / 3 s); a count that moved
        meanwhile (a server's watchers expired) is told to the table."""
        if not self.watching or time.monotonic() - self.watch_refreshed < TTL / 3:
            return
        self.watch_refreshed = time.monotonic()
        _watch_later(self.table_id, self.channel_name, True, self.channel_layer)

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
            _telling().heard[self.table_id] = int(event["count"])
            await self._tell_watchers(int(event["count"]))

    async def room_invite(self, event: dict[str, Any]) -> None:
        """An invitation to a private room, sent to the user's group: the table page shows it, as
        every page the player has open does (docs/PROTOCOL.md "Private rooms")."""
        await self._send({"type": "invite", "invite": event["invite"]})  # type: ignore[attr-defined]
