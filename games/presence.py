"""Who was heard from when: each seat's last heartbeat, kept in Redis when distributed (in this
process in the embedded mode), one write per heartbeat and never the database
(games/services/presence.py decides what the records mean: docs/ARCHITECTURE.md "Timers,
presence and the watchdog").

A heartbeat is one round trip to Redis: its time is set, the time it replaces comes back (none:
the first heartbeat on record) and, in the same pipeline, the table's last broadcast version
(``games.sent``) that the pong carries. Times are stored as plain numbers. The consumer sends it
from its event loop (``presence_beat_async``): a hop to a thread and back cost a server more than
the round trip itself (``kernel.loop_redis``).

A frame shows whether each seat was heard from lately (``presence_online``). A seat's heartbeat
time only moves forward, so a seat this process has already seen inside the window is still
inside it: the process remembers the last time it read or wrote for each seat
(``_known``), and a frame asks Redis only about the seats not known to be inside the window
(none at a table whose players all beat lately), with the same answer a fresh read would give.

A connection that closes leaves a mark (``presence_closed``): its seat counts as gone from then
until its next heartbeat (``presence_absent``), so a tab closed during a hand is known to be
away when the hand ends, without waiting out the window. The heartbeat times themselves are left
as they were: they only move forward.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable
from functools import cache
from typing import Any

import redis
from django.conf import settings

from games import sent
from kernel.loop_redis import loop_client
from kernel.redis_driver import driver_info

#: How long a heartbeat stays on record (far beyond any window that reads it).
PRESENCE_TTL = 24 * 3600

SeatKey = tuple[int, int]  # (table id, user id)
#: More commands for a heartbeat's round trip: given the Redis pipeline, queues them on it.
Also = Callable[[Any], None]
#: The last heartbeat time on record before this one, the table's last broadcast version, and
#: the replies to the ``Also`` commands (None where there is no pipeline: they were not sent).
Beat = tuple[float | None, int | None, list[Any] | None]

#: The last heartbeat time this process read or wrote, per seat (``presence_online``).
_known: dict[SeatKey, float] = {}
#: Past this many seats remembered, the memory starts again (seats that left stay otherwise).
_KNOWN_MAX = 100_000


def _remember(values: dict[SeatKey, float]) -> None:
    if len(_known) + len(values) > _KNOWN_MAX:
        _known.clear()
    _known.update(values)


def presence_key(table_id: int, user_id: int) -> str:
    return f"games:presence:{table_id}:{user_id}"


def presence_closed_key(table_id: int, user_id: int) -> str:
    return f"games:presence:closed:{table_id}:{user_id}"


class _Local:
    """The embedded mode's records: one process, one lock (no expiry needed in a day's run)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.seen: dict[str, float] = {}

    def beat(self, key: str, at: float, table_id: int) -> tuple[float | None, int | None]:
        with self.lock:
            last, self.seen[key] = self.seen.get(key), at
        return last, sent.sent_versions([table_id]).get(table_id)

    def read(self, keys: list[str]) -> list[float | None]:
        with self.lock:
            return [self.seen.get(k) for k in keys]

    def start(self, values: dict[str, float]) -> None:
        with self.lock:
            self.seen.update(values)

    def reset(self) -> None:
        with self.lock:
            self.seen.clear()

    async def amark(self, key: str, at: float) -> None:
        self.start({key: at})

    async def abeat(self, key: str, at: float, table_id: int, also: Also | None) -> Beat:
        return (*self.beat(key, at, table_id), None)  # memory only: nothing to wait for, no pipeline


class _Redis:
    def __init__(self, url: str) -> None:
        self.url = url
        self.client: Any = redis.Redis.from_url(
            url, socket_connect_timeout=1, socket_timeout=2, driver_info=driver_info()
        )

    def beat(self, key: str, at: float, table_id: int) -> tuple[float | None, int | None]:
        return _beat_result(_beat_on(self.client.pipeline(transaction=False), key, at, table_id).execute())

    async def abeat(self, key: str, at: float, table_id: int, also: Also | None) -> Beat:
        pipe = _beat_on(loop_client(self.url).pipeline(transaction=False), key, at, table_id)
        if also is not None:
            also(pipe)
        replies = await pipe.execute()
        return (*_beat_result(replies[:2]), replies[2:] if also is not None else None)

    def read(self, keys: list[str]) -> list[float | None]:
        return [None if v is None else float(v) for v in self.client.mget(keys)]

    def start(self, values: dict[str, float]) -> None:
        pipe = self.client.pipeline(transaction=False)
        for key, at in values.items():
            pipe.set(key, repr(at), ex=PRESENCE_TTL)
        pipe.execute()

    async def amark(self, key: str, at: float) -> None:
        await loop_client(self.url).set(key, repr(at), ex=PRESENCE_TTL)

    def reset(self) -> None:
        keys = list(self.client.scan_iter(match=presence_key("*", "*"), count=1000))  # type: ignore[arg-type]
        if keys:
            self.client.delete(*keys)


def _beat_on(pipe: Any, key: str, at: float, table_id: int) -> Any:
    pipe.set(key, repr(at), ex=PRESENCE_TTL, get=True)
    pipe.zscore(sent.KEY, str(table_id))
    return pipe


def _beat_result(replies: list[Any]) -> tuple[float | None, int | None]:
    last, version = replies
    return (None if last is None else float(last)), (None if version is None else int(version))


@cache
def _store() -> _Local | _Redis:
    return _Redis(settings.REDIS_URL) if settings.REDIS_URL else _Local()


def presence_beat(table_id: int, user_id: int) -> tuple[bool, int | None]:
    """Record a heartbeat now: whether it is the first on record, and the table's last
    broadcast version (None if unknown)."""
    at = time.time()
    last, version = _store().beat(presence_key(table_id, user_id), at, table_id)
    _remember({(table_id, user_id): at})
    return last is None, version


async def presence_beat_async(
    table_id: int, user_id: int, also: Also | None = None
) -> tuple[bool, int | None, list[Any] | None]:
    """:func:`presence_beat` on the running event loop, without a thread; ``also`` queues more
    commands in the same round trip, whose replies come third (None in the embedded mode: not
    sent)."""
    at = time.time()
    last, version, more = await _store().abeat(presence_key(table_id, user_id), at, table_id, also)
    _remember({(table_id, user_id): at})
    return last is None, version, more


def presence_read(seats: Iterable[SeatKey]) -> dict[SeatKey, float]:
    """When each seat's last heartbeat came (epoch seconds), for the seats on record."""
    keys = {presence_key(t, u): (t, u) for t, u in seats}
    if not keys:
        return {}
    names = list(keys)
    seen = {keys[k]: v for k, v in zip(names, _store().read(names), strict=True) if v is not None}
    _remember(seen)
    return seen


def presence_online(seats: Iterable[SeatKey], now: float, within: float) -> set[SeatKey]:
    """The seats heard from within ``within`` seconds before ``now``: those this process
    already knows to be inside the window without a read, the others in one read."""
    online, unknown = set(), []
    for seat in seats:
        last = _known.get(seat)
        if last is not None and now - last <= within:
            online.add(seat)
        else:
            unknown.append(seat)
    if unknown:
        online.update(seat for seat, last in presence_read(unknown).items() if now - last <= within)
    return online


async def presence_closed(table_id: int, user_id: int) -> None:
    """A player's connection to the table closed: the seat counts as gone until its next
    heartbeat (:func:`presence_absent`). A player with another connection open beats again
    within seconds."""
    await _store().amark(presence_closed_key(table_id, user_id), time.time())


def presence_absent(seats: Iterable[SeatKey], now: float, within: float) -> set[SeatKey]:
    """The seats gone at ``now``: not heard from within ``within`` seconds, or whose connection
    closed after their last heartbeat. A seat with no heartbeat on record is not counted gone
    (a cache that lost its keys marks nobody away). One read, from the store itself."""
    seats = list(seats)
    if not seats:
        return set()
    keys = [key for t, u in seats for key in (presence_key(t, u), presence_closed_key(t, u))]
    values = _store().read(keys)
    gone = set()
    for i, seat in enumerate(seats):
        last, closed = values[2 * i], values[2 * i + 1]
        if last is not None and (now - last > within or (closed is not None and closed >= last)):
            gone.add(seat)
    return gone


def presence_start(seats: Iterable[SeatKey], at: float) -> None:
    """Put ``at`` on record as the seats' last heartbeat (a new seat, or a window restarted)."""
    seats = list(seats)
    if seats:
        _store().start({presence_key(t, u): at for t, u in seats})
        _remember(dict.fromkeys(seats, at))


def presence_reset() -> None:
    """Forget every record (tests; a restored database): every seat starts a new window."""
    _store().reset()
    _known.clear()
