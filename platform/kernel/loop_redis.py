"""Redis from an event loop: one ``redis.asyncio`` client per event loop and URL.

A server's frequent small calls (a heartbeat's presence, a connection's slot) are cheaper as
one round trip awaited on the loop than as a hop to a thread that blocks on the same round trip
and a hop back (bench/heartbeat_cost.py: about a quarter less of the server's CPU a
heartbeat). An asyncio client belongs to the loop it connected on, so each loop gets its own;
its connections close as the loop closes (a server's loop lives as long as the process, a
test's ends with the test).
"""

from __future__ import annotations

import asyncio
import weakref
from typing import Any

from kernel.redis_driver import driver_info

_clients: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[tuple[str, float], Any]] = (
    weakref.WeakKeyDictionary()
)


#: Connections a loop's client opens at most. A call beyond them waits for one to come back
#: (at most the client's ``timeout``): a burst, such as every socket of a restarted server
#: connecting at once, queues instead of failing (a plain pool raises past its size).
CONNECTIONS = 100


def loop_client(url: str, *, timeout: float = 2.0) -> Any:
    """The running loop's client of the Redis at ``url`` whose replies wait at most ``timeout``
    seconds (one client per URL and timeout)."""
    loop = asyncio.get_running_loop()
    clients = _clients.get(loop)
    if clients is None:
        clients = _clients[loop] = {}
        _close_with_loop(loop, clients)
    client = clients.get((url, timeout))
    if client is None:
        import redis.asyncio  # the asyncio client is loaded at a loop's first call (never in the embedded mode)

        pool = redis.asyncio.BlockingConnectionPool.from_url(
            url, max_connections=CONNECTIONS, timeout=timeout, socket_connect_timeout=1, socket_timeout=timeout,
            driver_info=driver_info(),
        )
        client = clients[url, timeout] = redis.asyncio.Redis.from_pool(pool)
    return client


def _close_with_loop(loop: asyncio.AbstractEventLoop, clients: dict[tuple[str, float], Any]) -> None:
    close = loop.close

    def close_clients_then_loop() -> None:
        if not loop.is_closed() and not loop.is_running():
            for client in clients.values():
                try:
                    loop.run_until_complete(client.aclose())
                except Exception:  # noqa: BLE001, S110 - a connection that cannot close goes with its loop
                    pass
        clients.clear()
        close()

    loop.close = close_clients_then_loop  # type: ignore[method-assign]
