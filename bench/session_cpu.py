"""CPU time and SQL statements of a player's visit to a table, apart from the hands played:
opening the table's socket, joining, leaving and closing the socket, in one process, each timed
alone (bench/README.md "A visit's cost").

    DATABASE_URL=postgres://... REDIS_URL=redis://... .venv/bin/python bench/session_cpu.py [--tables 20]

Each table gets four new funded players with signed-in sessions. The sockets go through the
servers' own WebSocket stack (``kernel.websocket``: the Origin check, the session cookie, the
router and the consumer) in Channels' in-process communicator, over the configured channel layer
and database. Step by step over every table's players: connect (until the snapshot), join (until
the ack and every connected player's frame of the new version), leave (the same), disconnect. The
tables are made first, then visited one after the other with no pause, as on a busy server: work
a step leaves for later (the watchers' count) runs in the steps that follow, and what the last
table left is the CPU of the second after it ("afterwards", shared over the tables).
No hand is dealt (the start timer's task goes to a broker no worker reads). The clock is
``time.process_time`` (every thread of this process: the database threads included); the
statements are counted at Django's cursor, in every thread.

Prints, per step, the CPU ms and the statements per player (mean, and the median of the tables'
means).

``--at-once``: every table's players instead open their sockets all at the same moment, as a
room's do when a run starts or a restarted server's clients come back, then all join at once,
then all leave at once: per step, the time until every player had its answer, the median and
the 99th percentile of a player's wait, and the CPU ms per player.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import threading
import time
import uuid
from collections import defaultdict
from typing import Any

from action_cpu import Player, django_setup

STEPS = ("connect", "join", "leave", "disconnect")
#: How long after the last table's visit the work left for later is counted (the watchers' count
#: is told within games.watchers.TELL_WITHIN seconds of a change).
AFTERWARDS = 1.0


class Counter:
    """Statements run through Django's cursors, in any thread."""

    def __init__(self) -> None:
        self.n = 0
        self.sql: list[str] = []  # with --show-sql: each statement, as run
        self.keep = False
        self._lock = threading.Lock()

    def install(self) -> None:
        from django.db.backends import utils

        execute, executemany, counter = utils.CursorWrapper._execute, utils.CursorWrapper._executemany, self

        def counted(method: Any) -> Any:
            def wrapper(self: Any, sql: str, *args: Any, **kwargs: Any) -> Any:
                with counter._lock:
                    counter.n += 1
                    if counter.keep:
                        counter.sql.append(f"[{threading.current_thread().name}] {sql}")
                return method(self, sql, *args, **kwargs)
            return wrapper

        utils.CursorWrapper._execute = counted(execute)
        utils.CursorWrapper._executemany = counted(executemany)


def visitors(run: str, seats: int) -> tuple[int, int, list[str]]:
    """A new table of thirteen's cheapest stake level, its buy-in, and ``seats`` funded players'
    session keys."""
    from accounts.models import User
    from bench.harness.fleet import session_for
    from tables.models import StakeLevel, Table
    from wallet import services as wallet

    level = StakeLevel.objects.filter(game="thirteen", mode="").order_by("unit").first()
    assert level is not None, "no stake level for thirteen"
    table = Table.objects.create(stake_level=level, name=f"visit {run}")
    sessions = []
    for i in range(seats):
        user = User.objects.create_user(username=f"visit{run}-{i}", password=None)
        wallet.wallet_grant(user=user, amount=10**9, idempotency_key=f"bench-visit:{run}:{i}", actor=None, memo="bench")
        sessions.append(session_for(user))
    return table.pk, level.min_buy_in * 3, sessions


class Visitor(Player):
    """One player's connection, through the servers' own WebSocket stack with its session cookie."""

    def __init__(self, application: Any, table_id: int, session: str) -> None:
        from channels.testing import WebsocketCommunicator

        self.comm = WebsocketCommunicator(application, f"/ws/tables/{table_id}/", headers=[
            (b"host", b"127.0.0.1:8000"), (b"origin", b"http://127.0.0.1:8000"),
            (b"cookie", f"sessionid={session}".encode()),
        ])
        self.frame_text, self.version = "", -1

    async def request(self, others: list[Visitor], message: dict[str, Any]) -> None:
        request_id = uuid.uuid4().hex
        await self.comm.send_to(text_data=json.dumps({**message, "id": request_id}))
        reply = await self.until(0, reply_to=request_id)
        assert reply is not None and reply["type"] == "ack", reply
        version = self.version
        for other in others:
            await other.until(version)


async def visit(application: Any, table_id: int, buy_in: int, sessions: list[str],
                counter: Counter) -> dict[str, tuple[float, int]]:
    """Each step's CPU seconds and statements, summed over the table's players."""
    players = [Visitor(application, table_id, s) for s in sessions]
    spent: dict[str, tuple[float, int]] = {}

    async def timed(step: str, each: Any) -> None:
        cpu = n = 0.0
        for i, p in enumerate(players):
            started, before = time.process_time(), counter.n
            await each(i, p)
            cpu += time.process_time() - started
            n += counter.n - before
        spent[step] = (cpu, int(n))

    async def connect(i: int, p: Visitor) -> None:
        await p.connect()

    async def join(i: int, p: Visitor) -> None:
        await p.request(players[:i], {"type": "join", "buy_in": buy_in})

    async def leave(i: int, p: Visitor) -> None:
        await p.request(players[i + 1:], {"type": "leave"})

    async def disconnect(i: int, p: Visitor) -> None:
        await p.comm.disconnect()

    for step, each in zip(STEPS, (connect, join, leave, disconnect), strict=True):
        await timed(step, each)
    return spent


async def at_once(application: Any, tables: list[tuple[int, int, list[str]]]) -> None:
    """Every player's step started together, step after step; the figures of each."""
    seated = [[Visitor(application, table_id, s) for s in sessions] for table_id, _buy_in, sessions in tables]
    players = [p for table in seated for p in table]
    buy_in = tables[0][1]

    async def connect(p: Visitor) -> None:
        connected, _ = await p.comm.connect(timeout=60)
        assert connected
        await p.until(0)

    async def join(p: Visitor) -> None:
        await p.request([], {"type": "join", "buy_in": buy_in})

    async def leave(p: Visitor) -> None:
        await p.request([], {"type": "leave"})

    print(f"{len(tables)} tables x {len(seated[0])} players, each step started by all at once:")
    print(f"{'step':<8} {'all done ms':>11} {'p50 ms':>7} {'p99 ms':>7} {'CPU ms/player':>14}")
    for step, each in (("connect", connect), ("join", join), ("leave", leave)):
        started, cpu = time.perf_counter(), time.process_time()

        async def timed(p: Visitor, each: Any = each, started: float = started) -> float:
            await each(p)
            return 1000 * (time.perf_counter() - started)

        waits = list(await asyncio.gather(*(timed(p) for p in players)))
        spent = 1000 * (time.process_time() - cpu) / len(players)
        waits.sort()
        p99 = waits[min(len(waits) - 1, int(0.99 * len(waits)))]
        print(f"{step:<8} {waits[-1]:11.0f} {statistics.median(waits):7.0f} {p99:7.0f} {spent:14.2f}")
    for p in players:
        await p.comm.disconnect()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--at-once", action="store_true", help="each step by every player at the same moment")
    args = parser.parse_args()
    django_setup()
    from asgiref.sync import sync_to_async

    from games.routing import websocket_urlpatterns
    from kernel.websocket import websocket_application

    application = websocket_application(websocket_urlpatterns)
    counter = Counter()
    counter.install()
    run = uuid.uuid4().hex[:8]
    per_table: dict[str, list[tuple[float, int]]] = defaultdict(list)

    async def main_loop() -> None:
        if args.at_once:
            tables = [await sync_to_async(visitors)(f"{run}-{t}", args.seats) for t in range(args.tables + 1)]
            await visit(application, *tables[0], counter)  # warms the caches
            await at_once(application, tables[1:])
            return
        tables = [await sync_to_async(visitors)(f"{run}-{t}", args.seats) for t in range(args.tables + 1)]
        for t, (table_id, buy_in, sessions) in enumerate(tables):  # the first warms the caches, not counted
            spent = await visit(application, table_id, buy_in, sessions, counter)
            if t:
                for step, figures in spent.items():
                    per_table[step].append(figures)
        started = time.process_time()
        await asyncio.sleep(AFTERWARDS)
        per_table["afterwards"] = [((time.process_time() - started) / args.tables, 0)] * args.tables

    asyncio.run(main_loop())
    if args.at_once:
        return
    print(f"{args.tables} tables x {args.seats} players; per player:")
    print(f"{'step':<11} {'CPU ms':>7} {'median':>7} {'SQL':>5}")
    total = 0.0
    for step in (*STEPS, "afterwards"):
        rows = per_table[step]
        cpu = [1000 * c / args.seats for c, _ in rows]
        sql = sum(n for _, n in rows) / len(rows) / args.seats
        total += statistics.fmean(cpu)
        print(f"{step:<11} {statistics.fmean(cpu):7.2f} {statistics.median(cpu):7.2f} {sql:5.1f}")
    print(f"{'a visit':<11} {total:7.2f}")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
