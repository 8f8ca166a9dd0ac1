"""A server's own CPU for the Redis calls of a heartbeat and of a broadcast's presence, each way
the code can make them (bench/README.md "Redis calls of a heartbeat and a frame").

    REDIS_URL=redis://127.0.0.1:6379/11 .venv/bin/python bench/redis_calls.py [--calls 3000] [--rounds 3]

Per call, CPU µs of this process (``time.process_time``) and wall µs, in rounds that alternate
the ways so that they share the machine's minutes:

- a frame's presence of a four-seat table: a read from Redis (``presence_read``), and
  ``presence_online`` when this process knows the seats to be inside the window (no read);
- a heartbeat alone (``presence_beat_async``); with the refresh of the connection's slot as its
  own round trip (``connection_claim_async``, the claim script); with the refresh in the
  heartbeat's round trip (``connection_refresh_on``);
- a timer task sent to the broker (the next deal's, ``games.timers``), as the code sends it (its
  own app, whose configuration is a plain mapping, ``config.celery_app.DjangoCelerySettings``,
  and the arguments' ``repr`` given) and as it did before (an app configured from Django's
  settings object, Celery's safe repr), to a queue of its own that nothing reads and that is
  deleted at the end.

Redis's own CPU is not counted. The keys are of a table and user no test or run uses.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import time
from collections.abc import Awaitable, Callable
from functools import partial
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TABLE, USER, CHANNEL = 987_654_321, 987_654_321, "bench-redis-calls"


def _time(call: Callable[[], object], n: int) -> tuple[float, float]:
    cpu, wall = time.process_time(), time.perf_counter()
    for _ in range(n):
        call()
    return (time.process_time() - cpu) / n * 1e6, (time.perf_counter() - wall) / n * 1e6


async def _atime(call: Callable[[], Awaitable[object]], n: int) -> tuple[float, float]:
    cpu, wall = time.process_time(), time.perf_counter()
    for _ in range(n):
        await call()
    return (time.process_time() - cpu) / n * 1e6, (time.perf_counter() - wall) / n * 1e6


async def main(calls: int, rounds: int) -> None:
    import redis
    from celery import Celery
    from django.conf import settings

    from games import presence
    from games.services import limits
    from games.timers import _send as send_timer_task  # the timers' own way of sending

    before = Celery("before")
    before.config_from_object("django.conf:settings", namespace="CELERY")
    args = [TABLE, 1, time.time() + 3600]

    def send_before() -> None:
        before.send_task("bench.noop", args=args, countdown=3600, queue=CHANNEL)

    def send_now() -> None:
        send_timer_task("bench.noop", args, countdown=3600, queue=CHANNEL)

    seats = [(TABLE, USER + i) for i in range(4)]
    presence.presence_start(seats, time.time())
    also = partial(limits.connection_refresh_on, user_id=USER, channel=CHANNEL)

    async def beat_then_claim() -> None:
        await presence.presence_beat_async(TABLE, USER)
        await limits.connection_claim_async(user_id=USER, channel=CHANNEL)

    async def beat_with_refresh() -> None:
        _first, _version, replies = await presence.presence_beat_async(TABLE, USER, also)
        assert replies is not None and limits.connection_refreshed(replies)

    assert await limits.connection_claim_async(user_id=USER, channel=CHANNEL)
    def read() -> object:
        return presence.presence_read(seats)

    def known() -> object:
        return presence.presence_online(seats, time.time(), 20)

    ways: list[tuple[str, Callable[[], Awaitable[tuple[float, float]]]]] = [
        ("frame presence: read from Redis", lambda: asyncio.to_thread(_time, read, calls)),
        ("frame presence: known here", lambda: asyncio.to_thread(_time, known, calls)),
        ("heartbeat alone", lambda: _atime(lambda: presence.presence_beat_async(TABLE, USER), calls)),
        ("heartbeat, then slot claim", lambda: _atime(beat_then_claim, calls)),
        ("heartbeat with slot refresh", lambda: _atime(beat_with_refresh, calls)),
        ("timer task sent, as before", lambda: asyncio.to_thread(_time, send_before, calls)),
        ("timer task sent, as now", lambda: asyncio.to_thread(_time, send_now, calls)),
    ]
    results: dict[str, list[tuple[float, float]]] = {name: [] for name, _ in ways}
    for _ in range(rounds):
        for name, run in ways:
            results[name].append(await run())
    limits.connection_release(user_id=USER, channel=CHANNEL)
    # the queue and what kombu keeps of its bindings
    redis.Redis.from_url(settings.CELERY_BROKER_URL).delete(
        CHANNEL, f"_kombu.binding.{CHANNEL}", f"_kombu.binding_permanent.{CHANNEL}"
    )
    print(f"{calls} calls a round, {rounds} rounds; µs per call, each round")
    for name, figures in results.items():
        cpu = " / ".join(f"{c:.0f}" for c, _w in figures)
        wall = " / ".join(f"{w:.0f}" for _c, w in figures)
        print(f"  {name:<32} CPU {cpu:<20} wall {wall}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--calls", type=int, default=3000)
    parser.add_argument("--rounds", type=int, default=3)
    o = parser.parse_args()
    if not os.environ.get("REDIS_URL"):
        raise SystemExit("REDIS_URL must name a Redis: these are the distributed mode's calls")
    sys.path[:0] = [str(ROOT), str(ROOT / "platform")]
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")
    import django

    django.setup()
    asyncio.run(main(o.calls, o.rounds))
