"""The Celery broker transport: kombu's Redis transport, made to survive a Redis restart.

With kombu 5.7, once the worker has lost its broker connection, two things still reach for the
closed connection: closing the old channel puts the messages it holds unacknowledged (the phase
timers waiting for their ETA) back on the queue, and a task that ends after the reconnect
acknowledges its message on the old channel. Both build a Redis client from a connection that is
gone and fail with ``AttributeError``, which nothing catches: the worker exits ("Unrecoverable
error") at a Redis restart, and no timer fires and no hand is dealt until someone restarts it.
Here such a channel raises Redis's ``ConnectionError`` instead, which kombu and Celery expect
and log: nothing is put back (a restarted Redis keeps nothing; a surviving one hands the
messages out again after the visibility timeout, and the tasks are idempotent), and the sweeper
fires every overdue phase whose timer was lost (docs/ARCHITECTURE.md "Timers, presence and the
sweeper"). The worker's survival is shown by ``tests/games/chaos/test_broker.py``.

A channel also keeps one Redis client for its commands (``conn_or_acquire``): building one for
each command was a third of what sending a timer task cost (benchmark ``bench/redis_calls.py``,
its row "a timer task sent": about 240 µs of CPU with the client kept). Written against kombu's
``Channel.conn_or_acquire``, ``_connparams`` and ``_create_client``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import redis.exceptions
from kombu.transport import redis as kombu_redis

#: The versions this module was written and measured against (a test compares the installed ones).
WRITTEN_FOR = {"kombu": "5.7.0", "redis": "8.1.0"}


class Channel(kombu_redis.Channel):
    _publish_client: Any = None
    _create_client: Callable[[], Any]  # kombu's own, untyped

    @contextmanager
    def conn_or_acquire(self, client: Any = None) -> Iterator[Any]:
        """The channel's own client for its commands (a publish, an ack), kept while its pool
        is the same, where kombu builds a new ``redis.Redis`` for each: a client's
        construction copies its table of about 170 reply callbacks, a third of what sending a
        timer task costs a server when each command builds one."""
        if client:
            yield client
            return
        if self._publish_client is None or self._publish_client.connection_pool is not self.pool:
            self._publish_client = self._create_client()
        yield self._publish_client

    def _connparams(self, asynchronous: bool = False) -> dict[str, Any]:
        if self.connection is None or self.connection.client is None:
            raise redis.exceptions.ConnectionError("the broker connection of this channel is closed")
        params: dict[str, Any] = super()._connparams(asynchronous=asynchronous)  # type: ignore[misc]
        return params


class Transport(kombu_redis.Transport):
    Channel = Channel
