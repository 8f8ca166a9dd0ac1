"""Which version of each table was last broadcast: the liveness watchdog compares it with the
table's version to find a change whose frames never went out (a server killed between its
commit and its broadcast, a channel layer that was down).

One Redis sorted set shared by every process in the distributed mode (``ZADD GT`` keeps the
highest version whatever order two processes' broadcasts finish in); a dictionary in the
embedded mode's single process. Neither may break a broadcast: an unreachable Redis is logged
and forgotten (the watchdog sees the table as unknown, not behind).
"""

from __future__ import annotations

import logging
import threading
from functools import cache
from typing import Any

import redis
from django.conf import settings

from kernel.loop_redis import loop_client
from kernel.redis_driver import driver_info

log = logging.getLogger(__name__)

KEY = "games:broadcast:versions"


class _Local:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.versions: dict[int, int] = {}

    def mark(self, table_id: int, version: int) -> None:
        with self.lock:
            self.versions[table_id] = max(version, self.versions.get(table_id, 0))

    def read(self, table_ids: list[int]) -> dict[int, int]:
        with self.lock:
            return {t: self.versions[t] for t in table_ids if t in self.versions}

    def reset(self) -> None:
        with self.lock:
            self.versions.clear()

    async def aread_one(self, table_id: int) -> int | None:
        return self.read([table_id]).get(table_id)  # memory only: nothing to wait for


class _Redis:
    def __init__(self, url: str) -> None:
        self.url = url
        self.client: Any = redis.Redis.from_url(
            url, socket_connect_timeout=1, socket_timeout=1, driver_info=driver_info()
        )

    def mark(self, table_id: int, version: int) -> None:
        self.client.zadd(KEY, {str(table_id): version}, gt=True)

    def read(self, table_ids: list[int]) -> dict[int, int]:
        if not table_ids:
            return {}
        scores = self.client.zmscore(KEY, [str(t) for t in table_ids])
        return {t: int(s) for t, s in zip(table_ids, scores, strict=True) if s is not None}

    async def aread_one(self, table_id: int) -> int | None:
        version = await loop_client(self.url, timeout=1).zscore(KEY, str(table_id))
        return None if version is None else int(version)

    def reset(self) -> None:
        self.client.delete(KEY)


@cache
def _store() -> _Local | _Redis:
    return _Redis(settings.REDIS_URL) if settings.REDIS_URL else _Local()


def sent_mark(table_id: int, version: int) -> None:
    """Frames of ``version`` of the table went out."""
    try:
        _store().mark(table_id, version)
    except Exception as exc:  # noqa: BLE001 - never break a broadcast for its bookkeeping
        log.warning("could not record the broadcast of table %s: %s", table_id, exc)


def sent_mark_on(pipe: Any, table_id: int, version: int) -> None:
    """:func:`sent_mark` as a command of a Redis pipeline to ``settings.REDIS_URL`` (a
    broadcast's, ``games.groups.group_send``)."""
    pipe.zadd(KEY, {str(table_id): version}, gt=True)


def sent_versions(table_ids: list[int]) -> dict[int, int]:
    """The last version broadcast of each table known here (tables never broadcast are absent)."""
    return _store().read(table_ids)


async def sent_version_async(table_id: int) -> int | None:
    """The last version of the table broadcast (None if never), read on the running event loop
    (``kernel.loop_redis``), as a spectator's pong carries it."""
    return await _store().aread_one(table_id)


def sent_reset() -> None:
    """Forget every record: after the database was restored from a backup (its versions went
    back, the records would stay ahead of them) or reset. Records grow again with the next
    broadcasts; meanwhile the watchdog sees the tables as unknown, and pongs carry no version."""
    _store().reset()
