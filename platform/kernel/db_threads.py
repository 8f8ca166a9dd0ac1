"""Database work from a server's event loop: a few threads of the process's own.

A WebSocket consumer runs on the event loop and every service it calls is synchronous Django
code, so each call hops to a thread and back. ``channels.db.database_sync_to_async`` does that
on the loop's default executor (five or six threads on two cores); :func:`in_db_thread` is the
same hop (asgiref's ``sync_to_async``: the caller's context, its language and Django's
thread-critical locals, goes with the call; connections that failed or aged are handed back
before and after, as Django does around a request) on ``GAMES_DB_THREADS`` threads of the
process's own: every thread more than the database and the cores can use at once only queues
on the interpreter's lock, and each handover of that lock between threads costs the server CPU
(bench/live_load.sh at 40 tables: 4 threads 5.4 ms of server CPU an action, 8 threads 5.8).
Requests at one table queue on its row lock anyway.

Seat changes (a join, a leave, a top-up, sitting out) run in their own lane,
:func:`in_seat_thread`: ``GAMES_DB_SEAT_THREADS`` threads beside those. A hand's actions wait
on the players; a seat change does not, and a burst of them (a room emptying at once) would
otherwise fill every thread and the queue before the actions behind it: the actions sent in
the last second of a bench/live_load.sh run, while the finished tables' players leave, are the
ones that wait.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import ParamSpec, TypeVar

from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import close_old_connections

P = ParamSpec("P")
R = TypeVar("R")

_lock = threading.Lock()
_executors: dict[str, tuple[int, ThreadPoolExecutor]] = {}  # lane: (the process, its threads)


def db_executor(lane: str = "db") -> ThreadPoolExecutor:
    """This process's database threads of ``lane`` ("db", or "seat" for seat changes), started
    on first use (and again in a forked child)."""
    with _lock:
        held = _executors.get(lane)
        if held is None or held[0] != os.getpid():
            size = settings.GAMES_DB_SEAT_THREADS if lane == "seat" else settings.GAMES_DB_THREADS
            held = _executors[lane] = (os.getpid(), ThreadPoolExecutor(max_workers=size, thread_name_prefix=lane))
        return held[1]


def _call(fn: Callable[P, R], *args: P.args, **kwargs: P.kwargs) -> R:
    close_old_connections()
    try:
        return fn(*args, **kwargs)
    finally:
        close_old_connections()


async def in_db_thread(fn: Callable[P, R], *args: P.args, **kwargs: P.kwargs) -> R:
    """``fn(*args, **kwargs)`` in one of the process's database threads, awaited."""
    return await sync_to_async(_call, thread_sensitive=False, executor=db_executor())(fn, *args, **kwargs)


async def in_seat_thread(fn: Callable[P, R], *args: P.args, **kwargs: P.kwargs) -> R:
    """``fn(*args, **kwargs)`` in one of the process's seat-change threads, awaited."""
    return await sync_to_async(_call, thread_sensitive=False, executor=db_executor("seat"))(fn, *args, **kwargs)
