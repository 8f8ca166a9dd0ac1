"""The lobby's live feed, coalesced: a change at a table only marks the table (one set insert,
no query); once a second the publisher reads every marked table at once and sends the lobby
one message with their summaries (docs/PROTOCOL.md "Lobby"). However many tables change, a
lobby viewer gets at most one update a second, and a table's change never waits on the lobby.

The marks live in one Redis set shared by every process in the distributed mode (the
publisher takes them with ``SPOP``, so two publishers never send a table twice); in a set in
memory in the embedded mode's single process. Marking never breaks a broadcast: an
unreachable Redis is logged and the mark forgotten (the next change marks the table again).
"""

from __future__ import annotations

import logging
import threading
from functools import cache
from typing import Any

import redis
from django.conf import settings

from games.groups import group_send
from kernel.redis_driver import driver_info
from tables.groups import LOBBY_GROUP
from tables.selectors import table_list_by_ids, table_summary

log = logging.getLogger(__name__)

KEY = "tables:lobby:changed"
#: Tables one message carries at most; more wait for the next second.
BATCH = 500


class _Local:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.marked: set[int] = set()

    def mark(self, table_id: int) -> None:
        with self.lock:
            self.marked.add(table_id)

    def take(self, count: int) -> list[int]:
        with self.lock:
            taken = sorted(self.marked)[:count]
            self.marked.difference_update(taken)
            return taken


class _Redis:
    def __init__(self, url: str) -> None:
        self.client: Any = redis.Redis.from_url(
            url, socket_connect_timeout=1, socket_timeout=1, driver_info=driver_info()
        )

    def mark(self, table_id: int) -> None:
        self.client.sadd(KEY, str(table_id))

    def take(self, count: int) -> list[int]:
        return sorted(int(t) for t in self.client.spop(KEY, count) or [])


@cache
def _store() -> _Local | _Redis:
    return _Redis(settings.REDIS_URL) if settings.REDIS_URL else _Local()


def lobby_mark(table_id: int) -> None:
    """The table changed: its summary goes out with the lobby's next update."""
    try:
        _store().mark(table_id)
    except Exception as exc:  # noqa: BLE001 - never break a table's broadcast for the lobby
        log.warning("could not mark table %s for the lobby: %s", table_id, exc)


def lobby_mark_on(pipe: Any, table_id: int) -> None:
    """:func:`lobby_mark` as a command of a Redis pipeline to ``settings.REDIS_URL`` (a
    broadcast's, ``games.groups.group_send``)."""
    pipe.sadd(KEY, str(table_id))


def lobby_publish() -> int:
    """Send the lobby the summaries of the tables changed since the last time, in one message
    (two queries however many); returns how many tables it carried."""
    table_ids = _store().take(BATCH)
    if not table_ids:
        return 0
    summaries = [table_summary(table) for table in table_list_by_ids(table_ids)]
    if summaries:
        group_send((LOBBY_GROUP, {"type": "lobby.tables", "tables": summaries}))
    return len(summaries)
