"""The stall hunt (bench/README.md "Stalls"): many short runs of bots at fresh tables, each under
randomised conditions, watched by a monitor that stops at the first table that stopped moving.

A live table must never go quiet by itself: a hand's phase ends by its deadline (the timer, or
the sweeper behind it), a table with enough players deals after its pause, and every change at a
table reaches every client there. The monitor reads the database about once a second beside the
bots and declares a stall at the first of:

- ``deadline``: a hand in play whose deadline passed more than the margin ago;
- ``no deal``: an open table with enough playing seats and no hand in play, whose last hand
  ended more than GAMES_NEXT_HAND_DELAY + margin ago (or, never dealt, whose seats sat more than
  GAMES_START_DELAY + margin ago);
- ``missed frame``: a connected bot that has read no state frame for longer than the margin while
  its table's version is newer than the newest it has seen (a broadcast that never reached it);
- ``left waiting``: bots still playing at a table that has too few playing seats to deal and no
  hand in play, for longer than the margin (they wait for a hand that cannot come);
- ``timeout``: the run is not over by its timeout.

On a stall it writes everything needed to tell where the table got stuck (see :func:`dump`).
The bots can be told not to ask for a snapshot when nothing arrives (``client_sync``), so a lost
broadcast shows as a stall instead of being papered over by the client.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, TypeVar

from django.db import connection
from django.utils import timezone

from bench.harness import facts
from bench.harness.checks import counts_text, repairs_by_kind, rooms_settled
from bench.harness.client import Bot
from bench.harness.fleet import TablePlan, bots_for, game_modes, tables_open
from bench.harness.infra import Infra
from bench.harness.rooms import http_url
from bench.harness.stall_dump import Stall, dump
from bench.harness.watcher import Watcher, watchers_open, watchers_problems

T = TypeVar("T")

RULES = ("deadline", "no deal", "missed frame", "left waiting", "timeout")


@dataclass(frozen=True)
class Limits:
    """How long each thing may take before it counts as stuck, seconds."""

    margin: float
    start_delay: float
    next_hand_delay: float


@dataclass(frozen=True)
class BotSeen:
    """What the monitor needs of one bot, read on the bots' event loop."""

    name: str
    table_id: int
    seen_version: int  # the newest table version it has read
    quiet_for: float  # seconds since it last read a state frame
    connected: bool
    done: bool


def bot_seen(bot: Bot, name: str, now: float) -> BotSeen:
    return BotSeen(name=name, table_id=bot.table_id, seen_version=bot.seen_version,
                   quiet_for=now - bot.last_state if bot.last_state else 0.0,
                   connected=bot.connected_to is not None, done=bot.done.is_set())


# --- the rules ---------------------------------------------------------------------------------

def stalls_find(table_ids: list[int], bots: list[BotSeen], limits: Limits, now: datetime,
                waiting_since: dict[int, datetime]) -> list[Stall]:
    """Every stall at the tables now. ``waiting_since`` is the monitor's memory between calls:
    when each table was first seen with bots waiting and too few seats to deal."""
    margin = timedelta(seconds=limits.margin)
    in_play = facts.hands_in_play(table_ids)
    found = [Stall("deadline", h.table_id, f"hand {h.id} (#{h.number}) phase {h.phase_seq} was due at "
                   f"{h.deadline:%H:%M:%S.%f}, {(now - h.deadline).total_seconds():.1f} s ago")
             for h in in_play if h.deadline is not None and h.deadline < now - margin]
    active = {h.table_id for h in in_play}
    tables = facts.tables_of(table_ids)
    playing = facts.playing_seats_joined(table_ids)
    waiting = {b.table_id for b in bots if not b.done}
    for table_id, table in tables.items():
        if table.status != facts.OPEN or table_id in active:
            waiting_since.pop(table_id, None)
            continue
        low = table.players_needed
        sat = playing.get(table_id, [])
        if len(sat) >= low:
            waiting_since.pop(table_id, None)
            stall = _no_deal(table_id, sat[low - 1], limits, now)
            if stall is not None:
                found.append(stall)
        elif table_id in waiting:
            since = waiting_since.setdefault(table_id, now)
            if now - since > margin:
                found.append(Stall("left waiting", table_id, f"{len(sat)} playing seat(s), {low} needed, no hand "
                                   f"in play, bots still waiting for {(now - since).total_seconds():.1f} s"))
        else:
            waiting_since.pop(table_id, None)
    versions = {pk: t.version for pk, t in tables.items()}
    for b in bots:
        if b.done or not b.connected or b.quiet_for <= limits.margin:
            continue
        if versions.get(b.table_id, -1) > b.seen_version:
            found.append(Stall("missed frame", b.table_id, f"{b.name} has read no state frame for {b.quiet_for:.1f} s; "
                               f"it saw version {b.seen_version}, the table is at {versions[b.table_id]}", b.name))
    return found


def _no_deal(table_id: int, ready_at: datetime, limits: Limits, now: datetime) -> Stall | None:
    """Enough seats and no hand in play: the next deal is due after the pause."""
    latest = facts.latest_hand(table_id)
    if latest is not None and latest[0] == facts.ACTIVE:
        return None  # dealt since the hands in play were read
    last = latest[1] if latest is not None else None
    if last is None:
        due, what = ready_at + timedelta(seconds=limits.start_delay), f"seats sat at {ready_at:%H:%M:%S.%f}"
    else:
        due, what = last + timedelta(seconds=limits.next_hand_delay), f"last hand ended at {last:%H:%M:%S.%f}"
    late = (now - due).total_seconds()
    if late <= limits.margin:
        return None
    return Stall("no deal", table_id, f"enough playing seats and no hand in play: {what}, a deal was due "
                 f"{late:.1f} s ago")


# --- the runs ----------------------------------------------------------------------------------

@dataclass(frozen=True)
class Conditions:
    """One run's randomised conditions."""

    think: float  # each action waits 0-think s
    jitter: float  # each frame read waits 0-jitter s
    servers: str  # which server each bot uses: alternate, random, or all on one

    @classmethod
    def draw(cls, rng: random.Random, think: float, jitter: float) -> Conditions:
        return cls(think=round(rng.uniform(0, think), 2), jitter=round(rng.uniform(0, jitter), 3),
                   servers=rng.choice(["alternate", "random", "first", "second"]))

    def url_index(self, i: int, rng: random.Random) -> int:
        return {"alternate": i % 2, "random": rng.randrange(2), "first": 0, "second": 1}[self.servers]


@dataclass
class Options:
    runs: int
    tables: int
    hands: int
    game: str | None
    seed: int
    client_sync: bool
    margin: float
    think: float
    jitter: float
    run_timeout: float
    restart_every: int  # 0: never restart the servers and the worker
    alone: bool = False  # each bot winds down by itself, not with its table (a bot may be left alone)
    rooms: int = 0  # of each run's tables, how many are private rooms
    watchers: int = 0  # sockets watching each run's tables, rooms and public ones in turn


@dataclass
class RunResult:
    hands: int
    seconds: float
    sessions: int | None
    failures: list[str]
    repairs: dict[str, int] = field(default_factory=dict)  # the watchdog's, by kind
    watched: int = 0  # state frames the watchers checked
    stall: Stall | None = None
    dump: str = ""


def _checked(table_ids: list[int], seen: list[BotSeen], limits: Limits, waiting: dict[int, datetime]) -> list[Stall]:
    try:
        return stalls_find(table_ids, seen, limits, timezone.now(), waiting)
    finally:
        connection.close()


def _dumped(stall: Stall, infra: Infra, bots: list[tuple[str, Bot]]) -> str:
    try:
        return dump(stall, infra, bots)
    finally:
        connection.close()


def _hands_ended(table_ids: list[int]) -> int:
    try:
        return facts.hands_ended(table_ids)
    finally:
        connection.close()


def _repairs(table_ids: list[int]) -> dict[str, int]:
    try:
        return repairs_by_kind(table_ids)
    finally:
        connection.close()


def _tables_open(pairs: list[tuple[str, str]], tables: int, rooms: int, base: str) -> list[TablePlan]:
    try:
        return tables_open(pairs, tables, rooms=rooms, base=base)
    finally:
        connection.close()


def _watchers_open(plan: list[TablePlan], count: int, urls: list[str],
                   stops: dict[int, asyncio.Event]) -> list[Watcher]:
    try:
        return watchers_open(plan, count, urls, stops=stops)
    finally:
        connection.close()


def _rooms_settled(room_ids: list[int]) -> list[str]:
    try:
        return rooms_settled(room_ids)
    finally:
        connection.close()


#: GAMES_START_DELAY / GAMES_NEXT_HAND_DELAY drawn at each restart of the servers and worker.
DELAYS = ((1.0, 1.0), (0.0, 0.0), (0.5, 2.0), (2.0, 0.5), (0.0, 1.5), (1.0, 3.0))


@dataclass
class Hunt:
    """The runs of one hunt on one set of processes (started and stopped by the caller)."""

    infra: Infra
    options: Options
    out: Callable[[str], None]
    limits: Limits = field(default_factory=lambda: Limits(10, 1, 1))
    db: ThreadPoolExecutor = field(default_factory=lambda: ThreadPoolExecutor(1))

    async def query(self, fn: Callable[..., T], *args: Any) -> T:
        """A database call in the hunt's own thread (Django's ORM is synchronous)."""
        return await asyncio.get_running_loop().run_in_executor(self.db, fn, *args)

    def delays_set(self, start: float, next_hand: float) -> None:
        self.infra.env.update(GAMES_START_DELAY=str(start), GAMES_NEXT_HAND_DELAY=str(next_hand))
        self.limits = Limits(self.options.margin, start, next_hand)

    def restart(self, rng: random.Random) -> None:
        """Restart the servers and the workers with new start and showdown pauses."""
        self.delays_set(*rng.choice(DELAYS))
        for proc in self.infra.processes():
            proc.kill()
        for i in range(len(self.infra.servers)):
            self.infra.server_start(i)
        self.infra.workers_start()

    async def run_one(self, n: int, rng: random.Random) -> RunResult:
        """One run: fresh tables, bots under newly drawn conditions, and the monitor beside them;
        over when every bot is done, or at the monitor's first stall (with its dump)."""
        o = self.options
        conditions = Conditions.draw(rng, o.think, o.jitter)
        pairs = game_modes(o.game)
        plan = await self.query(_tables_open, pairs, o.tables, o.rooms, http_url(self.infra.urls[0]))
        table_ids = [t.table_id for t in plan]
        bots = bots_for(plan, self.infra.urls, "", o.hands)
        watchers = await self.query(_watchers_open, plan, o.watchers, self.infra.urls,
                                    {b.table_id: b.stop for b in bots})
        named, seat_of = [], dict.fromkeys(table_ids, 0)
        for i, bot in enumerate(bots):
            bot.think_max, bot.jitter, bot.client_sync = conditions.think, conditions.jitter, o.client_sync
            bot.url_index = conditions.url_index(i, rng)
            if o.alone:
                bot.stop = asyncio.Event()
            named.append((f"bot {bot.table_id}/{seat_of[bot.table_id]}", bot))
            seat_of[bot.table_id] += 1
        self.out(f"run {n}: tables {table_ids[0]}-{table_ids[-1]}, think 0-{conditions.think} s, jitter "
                 f"0-{conditions.jitter} s, servers {conditions.servers}, start/next delays "
                 f"{self.limits.start_delay}/{self.limits.next_hand_delay} s")
        sessions_before = await self.query(self.sessions)
        started = time.monotonic()
        players = asyncio.ensure_future(asyncio.gather(*(b.run(started + o.run_timeout + 5) for b in bots),
                                                       return_exceptions=True))
        watching = asyncio.ensure_future(asyncio.gather(*(w.run(started + o.run_timeout + 5) for w in watchers),
                                                        return_exceptions=True))
        monitor = asyncio.ensure_future(self.monitor(table_ids, named, started + o.run_timeout))
        either: list[asyncio.Future[Any]] = [players, monitor]
        await asyncio.wait(either, return_when=asyncio.FIRST_COMPLETED)
        stall = monitor.result() if monitor.done() else None
        if stall is not None:
            text = await self.query(_dumped, stall, self.infra, named)
            players.cancel()
            watching.cancel()
            await asyncio.gather(players, watching, return_exceptions=True)
            return RunResult(0, time.monotonic() - started, None, [], stall=stall, dump=text)
        monitor.cancel()
        results = await players
        seconds = time.monotonic() - started
        failures = [f"{name}: {r!r}" for (name, _b), r in zip(named, results, strict=True) if isinstance(r, Exception)]
        failures += [e for _n, b in named for e in b.stats.errors]
        for watcher in watchers:
            watcher.stop.set()  # its table's bots are all done
        failures += [f"watcher: {r!r}" for r in await watching if isinstance(r, Exception)]
        failures += watchers_problems(watchers)
        failures += await self.query(_rooms_settled, [t.table_id for t in plan if t.room_code])
        hands = await self.query(_hands_ended, table_ids)
        sessions_after = await self.query(self.sessions)
        sessions = None if sessions_before is None or sessions_after is None else sessions_after - sessions_before - 1
        repairs = await self.query(_repairs, table_ids)
        return RunResult(hands, seconds, sessions, failures, repairs, sum(w.frames for w in watchers))

    def sessions(self) -> int | None:
        out = self.infra._psql("SELECT sessions FROM pg_stat_database WHERE datname = current_database()",
                               self.infra.db_name)
        return int(out) if out else None

    async def monitor(self, table_ids: list[int], bots: list[tuple[str, Bot]], timeout_at: float) -> Stall:
        waiting: dict[int, datetime] = {}
        before: set[tuple[str, int, str]] = set()
        while True:
            await asyncio.sleep(1)
            now = time.monotonic()
            if now > timeout_at and not all(b.done.is_set() for _n, b in bots):
                left = [name for name, b in bots if not b.done.is_set()]
                first = next(b for _n, b in bots if not b.done.is_set())
                return Stall("timeout", first.table_id, f"{len(left)} bot(s) not done after "
                             f"{self.options.run_timeout:.0f} s: {', '.join(left[:8])}")
            seen = [bot_seen(b, name, now) for name, b in bots]
            found = await self.query(_checked, table_ids, seen, self.limits, waiting)
            # A stall holds on two reads in a row: one read is several queries, and a table may
            # have moved on between them.
            again = [s for s in found if (s.rule, s.table_id, s.bot) in before]
            if again:
                return again[0]
            before = {(s.rule, s.table_id, s.bot) for s in found}


    async def hunt(self) -> bool:
        """The runs, one after another, until the last or the first stall; True if none stalled."""
        o, rng = self.options, random.Random(self.options.seed)
        hands = seconds = 0.0
        sessions, failures = 0, 0
        repairs: dict[str, int] = {}
        for n in range(1, o.runs + 1):
            if o.restart_every and n > 1 and (n - 1) % o.restart_every == 0:
                await asyncio.get_running_loop().run_in_executor(None, self.restart, rng)
            result = await self.run_one(n, rng)
            if result.stall is not None:
                path = self.infra.run_dir / f"stall-run{n}-table{result.stall.table_id}.txt"
                path.write_text(result.dump)
                self.out(result.dump)
                self.out(f"run {n}: STALL ({result.stall.rule}) at table {result.stall.table_id}; dump in {path}")
                self.out(totals_line(n - 1, int(hands), seconds, sessions, 1))
                return False
            hands, seconds = hands + result.hands, seconds + result.seconds
            sessions += result.sessions or 0
            failures += len(result.failures)
            for kind, k in result.repairs.items():
                repairs[kind] = repairs.get(kind, 0) + k
            rate = 60 * result.hands / result.seconds
            self.out(f"run {n}: hands {result.hands} in {result.seconds:.1f} s ({rate:.0f}/min), stalls 0, "
                     f"client failures {len(result.failures)}, PostgreSQL sessions opened {result.sessions}, "
                     f"watchdog repairs {counts_text(result.repairs)}, watcher frames checked {result.watched}"
                     + "".join(f"\n    failure: {f}" for f in result.failures[:5]))
        self.out(totals_line(o.runs, int(hands), seconds, sessions, 0) + f", client failures {failures}, "
                 f"watchdog repairs {counts_text(repairs)}")
        return True


def totals_line(runs: int, hands: int, seconds: float, sessions: int, stalls: int) -> str:
    rate = 60 * hands / seconds if seconds else 0.0
    per100 = 100 * sessions / hands if hands else 0.0
    return (f"total: runs {runs}, hands {hands}, hands/min {rate:.0f}, stalls {stalls}, PostgreSQL sessions "
            f"opened per 100 hands {per100:.1f}")
