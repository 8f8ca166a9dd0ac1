"""Django's Redis cache with one Redis client per connection pool, kept for the process.

Django's ``RedisCacheClient`` builds a new ``redis.Redis`` around its pool for every cache
call, and a client's construction copies its table of about 170 reply callbacks: on the live
path, where presence is read for every state frame and written for every heartbeat, that was
a tenth of a millisecond a call (timed on the live path; no benchmark of bench/ isolates it:
``bench/redis_calls.py``, "a frame's presence", measures the calls it speeds). A client is safe
to share between threads (each command takes a connection from the pool), and the pool itself
notices a fork. Written against Django's ``RedisCacheClient._get_connection_pool`` and
``_client`` and ``RedisCache._class``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.core.cache.backends.redis import RedisCache as DjangoRedisCache
from django.core.cache.backends.redis import RedisCacheClient as DjangoRedisCacheClient

#: The versions this module was written and measured against (a test compares the installed ones).
WRITTEN_FOR = {"Django": "5.2.19", "redis": "8.1.0"}


class RedisCacheClient(DjangoRedisCacheClient):
    # Django's own, untyped
    _get_connection_pool: Callable[[bool], Any]
    _client: Callable[..., Any]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._clients: dict[int, Any] = {}

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        pool = self._get_connection_pool(write)
        client = self._clients.get(id(pool))
        if client is None:
            client = self._clients[id(pool)] = self._client(connection_pool=pool)
        return client


class RedisCache(DjangoRedisCache):
    def __init__(self, server: str, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = RedisCacheClient
