"""The check a pooled PostgreSQL connection passes as it leaves the pool.

psycopg_pool's own check (``ConnectionPool.check_connection``, what Django's
``CONN_HEALTH_CHECKS`` turns on) sends an empty query on every checkout: a round trip to the
server, and a wake-up of its backend, for each request, each WebSocket message that reads the
database and each timer task, since every one of them takes a connection from the pool and
gives it back (bench/live_load.sh: about two PostgreSQL transactions an action with the check
below, five with the empty query).

A connection that went back to the pool moments ago was working then. So the empty query is
sent only when it may tell something: the connection has been idle for longer than
:data:`CHECK_IDLE_AFTER` (a restart may have passed it by unseen), or the server has written to
it while it sat in the pool, which a healthy idle connection never sees (an ended backend sends
its reason and closes the socket: a restart, ``pg_terminate_backend``). That look costs one
``poll`` of the socket, no round trip. A connection that still breaks in use fails its
statement: the live path runs again on a new one (``games.services.retry``) and Django closes
a connection that failed.
"""

from __future__ import annotations

import select
import time
from typing import Any
from weakref import WeakKeyDictionary

import psycopg
from psycopg_pool import ConnectionPool

#: Seconds a pooled connection may have been idle and still leave the pool unchecked.
CHECK_IDLE_AFTER = 1.0

_checked: WeakKeyDictionary[Any, float] = WeakKeyDictionary()  # connection -> when it last left the pool


def check_if_idle(conn: Any) -> None:
    """The pool's ``check``: the empty query of psycopg_pool for a connection that has not left
    the pool within the last :data:`CHECK_IDLE_AFTER` seconds or that the server has written to
    since (raises if it is broken)."""
    now = time.monotonic()
    last = _checked.get(conn)
    if last is None or now - last > CHECK_IDLE_AFTER or _server_wrote(conn):
        ConnectionPool.check_connection(conn)
    _checked[conn] = now


def _server_wrote(conn: Any) -> bool:
    """Whether anything is waiting to be read on the idle connection's socket (or it has none)."""
    try:
        poller = select.poll()
        poller.register(conn.pgconn.socket, select.POLLIN | select.POLLPRI)
        return bool(poller.poll(0))
    except (OSError, ValueError, psycopg.OperationalError):
        return True
