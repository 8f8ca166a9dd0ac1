"""Counted leases that free themselves: at most ``limit`` holders of each of several counts at
once, every holder dropped ``ttl`` seconds after it took its lease unless it gave it back first.

A lease is one member in a sorted set per count (member -> when it expires), in Redis when
distributed (shared by every process), in this process when embedded. Taking one checks every
count and adds to all of them, or to none, in one step (a Lua script), so two processes never
both take the last place. A process that dies holding a lease never gives it back: the lease
stops counting at its expiry. While Redis cannot be reached every lease is granted, with a
warning in the log (what the leases guard has a hard bound of its own; docs/OPERATIONS.md
"Budgets").
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Sequence
from functools import cache
from typing import Any

from django.conf import settings

from kernel.redis_driver import driver_info

log = logging.getLogger(__name__)

#: KEYS: the counts' sets; ARGV: now, expiry, member, the set's own expiry, then each count's limit.
#: Returns 0, or the 1-based index of the first full count.
_TAKE = """
for i, key in ipairs(KEYS) do
  redis.call('ZREMRANGEBYSCORE', key, '-inf', ARGV[1])
  if redis.call('ZCARD', key) >= tonumber(ARGV[4 + i]) then return i end
end
for _, key in ipairs(KEYS) do
  redis.call('ZADD', key, ARGV[2], ARGV[3])
  redis.call('EXPIRE', key, ARGV[4])
end
return 0
"""


class _Local:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.sets: dict[str, dict[str, float]] = {}

    def take(self, counts: Sequence[tuple[str, int]], member: str, ttl: float) -> int:
        now = time.time()
        with self.lock:
            for index, (key, limit) in enumerate(counts, start=1):
                held = {m: t for m, t in self.sets.get(key, {}).items() if t > now}
                self.sets[key] = held
                if len(held) >= limit:
                    return index
            for key, _limit in counts:
                self.sets[key][member] = now + ttl
            return 0

    def drop(self, keys: Sequence[str], member: str) -> None:
        with self.lock:
            for key in keys:
                self.sets.get(key, {}).pop(member, None)


class _Redis:
    def __init__(self, url: str) -> None:
        import redis

        self.errors: tuple[type[Exception], ...] = (redis.exceptions.RedisError, OSError)
        self.client: Any = redis.Redis.from_url(url, socket_connect_timeout=1, socket_timeout=1,
                                                driver_info=driver_info())
        self.script = self.client.register_script(_TAKE)

    def take(self, counts: Sequence[tuple[str, int]], member: str, ttl: float) -> int:
        now = time.time()
        args: list[str | float] = [now, now + ttl, member, int(ttl) + 1, *(limit for _key, limit in counts)]
        try:
            return int(self.script(keys=[key for key, _limit in counts], args=args))
        except self.errors as exc:
            log.warning("leases: Redis unreachable (%s); granting", type(exc).__name__)
            return 0

    def drop(self, keys: Sequence[str], member: str) -> None:
        try:
            pipe = self.client.pipeline(transaction=False)
            for key in keys:
                pipe.zrem(key, member)
            pipe.execute()
        except self.errors as exc:
            log.warning("leases: Redis unreachable (%s); the lease expires by itself", type(exc).__name__)


@cache
def _store() -> _Local | _Redis:
    return _Redis(settings.REDIS_URL) if settings.REDIS_URL else _Local()


def _key(name: str) -> str:
    return f"{settings.GAMES_LIMITS_PREFIX}:lease:{name}"


def lease_take(*, counts: Sequence[tuple[str, int]], member: str, ttl: float) -> str | None:
    """Take a place for ``member`` in every count (name, limit) for ``ttl`` seconds: None when
    taken, else the name of the first count that is full (nothing taken then)."""
    full = _store().take([(_key(name), limit) for name, limit in counts], member, ttl)
    return counts[full - 1][0] if full else None


def lease_drop(*, names: Sequence[str], member: str) -> None:
    """Give ``member``'s places back before they expire."""
    _store().drop([_key(name) for name in names], member)
