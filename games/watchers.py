"""Who watches a table: its connections whose user holds no seat there (signed out, or signed in
and not seated). The table page shows how many (docs/PROTOCOL.md "Watchers").

Each watching connection is a member of its table's set with an expiry: one Redis sorted set per
table (scores are expiry times) in the distributed mode, shared by every server; a dict in the
embedded mode's one process. A connection refreshes its membership while it pings, so the
watchers of a server that was killed stop counting by themselves within ``TTL`` seconds. A server
applies the changes its connections made to a table within ``TELL_WITHIN`` seconds together, in
one round trip that returns the count (games/watching.py), awaited on its event loop
(``kernel.loop_redis``).
"""

from __future__ import annotations

import logging
import threading
import time
from functools import cache

from django.conf import settings

from kernel.loop_redis import loop_client

log = logging.getLogger(__name__)

#: A membership not refreshed for this long no longer counts (a connection refreshes every TTL / 3).
TTL = 30.0
#: A table hears its new count this long after a change at most: the changes a server makes to a
#: table meanwhile (a room's players sitting down together, a restarted server's clients coming
#: back, one player's connect and join) cost one count read and one message between them.
TELL_WITHIN = 0.5
#: The channel-layer message type that carries a table's new count to its connections.
WATCHERS_EVENT = "table.watchers"


def _key(table_id: int) -> str:
    """The table's set, under the prefix of the per-user limits' keys (each test run its own)."""
    return f"{settings.GAMES_LIMITS_PREFIX}:watchers:{table_id}"


class _Local:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.tables: dict[str, dict[str, float]] = {}

    async def apply(self, table_id: int, changes: dict[str, bool], now: float) -> int:
        key = _key(table_id)
        with self.lock:
            members = self.tables.setdefault(key, {})
            for channel, watching in changes.items():
                if watching:
                    members[channel] = now + TTL
                else:
                    members.pop(channel, None)
            for name in [n for n, until in members.items() if until < now]:
                del members[name]
            if not members:
                del self.tables[key]
            return len(members)


class _Redis:
    def __init__(self, url: str) -> None:
        self.url = url

    async def apply(self, table_id: int, changes: dict[str, bool], now: float) -> int:
        key = _key(table_id)
        pipe = loop_client(self.url, timeout=1).pipeline(transaction=False)
        joined = {channel: now + TTL for channel, watching in changes.items() if watching}
        left = [channel for channel, watching in changes.items() if not watching]
        if joined:
            pipe.zadd(key, joined)
        if left:
            pipe.zrem(key, *left)
        pipe.zremrangebyscore(key, "-inf", now)
        pipe.zcard(key)
        pipe.expire(key, int(TTL * 2))  # a table nobody watches any more leaves no key behind
        replies = await pipe.execute()
        return int(replies[-2])


@cache
def _store() -> _Local | _Redis:
    return _Redis(settings.REDIS_URL) if settings.REDIS_URL else _Local()


async def watchers_apply(*, table_id: int, changes: dict[str, bool]) -> int | None:
    """Connections that started watching the table (or refreshed their membership: True) or
    stopped (False), in one round trip; the table's count after them, expired members dropped,
    or None when it could not be kept (a Redis away: the count is informational and never
    breaks a connection)."""
    try:
        return await _store().apply(table_id, changes, time.time())
    except Exception as exc:  # noqa: BLE001 - a watcher count never fails a socket
        log.warning("could not count the watchers of table %s: %s", table_id, exc)
        return None


async def watcher_count(*, table_id: int) -> int | None:
    """How many connections watch the table now (None when it cannot be read)."""
    return await watchers_apply(table_id=table_id, changes={})


def watchers_event(table_id: int, count: int) -> dict[str, object]:
    """The channel-layer message that tells a table's connections its new count."""
    return {"type": WATCHERS_EVENT, "table": table_id, "count": count}


def watchers_frame(table_id: int, count: int) -> dict[str, object]:
    """The frame a connection sends: public, the same for everyone at the table."""
    return {"type": "watchers", "table": table_id, "count": count}
