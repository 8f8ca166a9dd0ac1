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
import base64
import json
import random
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any, TypeVar

from django.conf import settings
from django.db import connection
from django.utils import timezone

from games.adapters import player_limits
from games.bots.client import Bot
from games.bots.fleet import TablePlan, bots_for, game_modes, tables_open
from games.bots.infra import Infra
from games.models import Clock, Hand, HandAction, Repair
from tables.models import Seat, Table

T = TypeVar("T")

SWEEPER_CLOCK = "sweeper"
SWEEPER_REPORT_KEY = "games:sweeper:last"
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


@dataclass(frozen=True)
class Stall:
    rule: str
    table_id: int
    text: str
    bot: str = ""


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
    found = [Stall("deadline", h.table_id, f"hand {h.pk} (#{h.number}) phase {h.phase_seq} was due at "
                   f"{h.deadline:%H:%M:%S.%f}, {(now - h.deadline).total_seconds():.1f} s ago")
             for h in Hand.objects.filter(table_id__in=table_ids, status=Hand.Status.ACTIVE, deadline__lt=now - margin)
             if h.deadline is not None]
    active = set(Hand.objects.filter(table_id__in=table_ids, status=Hand.Status.ACTIVE)
                 .values_list("table_id", flat=True))
    tables = {t.pk: t for t in Table.objects.filter(pk__in=table_ids).select_related("stake_level")}
    playing: dict[int, list[datetime]] = {}
    for table_id, joined in Seat.objects.filter(table_id__in=table_ids, status=Seat.Status.PLAYING).order_by(
            "joined_at").values_list("table_id", "joined_at"):
        playing.setdefault(table_id, []).append(joined)
    waiting = {b.table_id for b in bots if not b.done}
    for table_id, table in tables.items():
        if table.status != Table.Status.OPEN or table_id in active:
            waiting_since.pop(table_id, None)
            continue
        low = player_limits(table.stake_level)[0]
        sat = playing.get(table_id, [])
        if len(sat) >= low:
            waiting_since.pop(table_id, None)
            stall = _no_deal(table, sat[low - 1], limits, now)
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


def _no_deal(table: Table, ready_at: datetime, limits: Limits, now: datetime) -> Stall | None:
    """Enough seats and no hand in play: the next deal is due after the pause."""
    latest = Hand.objects.filter(table=table).order_by("-number").values_list("status", "finished_at").first()
    if latest is not None and latest[0] == Hand.Status.ACTIVE:
        return None  # dealt since the hands in play were read
    last = latest[1] if latest is not None else None
    if last is None:
        due, what = ready_at + timedelta(seconds=limits.start_delay), f"seats sat at {ready_at:%H:%M:%S.%f}"
    else:
        due, what = last + timedelta(seconds=limits.next_hand_delay), f"last hand ended at {last:%H:%M:%S.%f}"
    late = (now - due).total_seconds()
    if late <= limits.margin:
        return None
    return Stall("no deal", table.pk, f"enough playing seats and no hand in play: {what}, a deal was due "
                 f"{late:.1f} s ago")


# --- the dump ----------------------------------------------------------------------------------

def dump(stall: Stall, infra: Infra, bots: list[tuple[str, Bot]]) -> str:
    """Everything about the stalled table, as text: the table row, its hand, last actions and
    seats, the timers in flight, the sweeper's last run, the channel layer's subscribers, the
    bots' last frames and the logs' tails."""
    lines = [f"STALL ({stall.rule}) at table {stall.table_id}: {stall.text}", ""]
    bot_part = _section("bots", _bot_lines(bots, stall.table_id))  # first: the bots go on meanwhile
    table = Table.objects.filter(pk=stall.table_id).select_related("stake_level").first()
    if table is None:
        return "\n".join(lines + ["no such table"])
    lines += _section("table", [json.dumps({
        "id": table.pk, "game": table.stake_level.game, "mode": table.stake_level.mode, "status": table.status,
        "version": table.version, "hands_played": table.hands_played, "carry": table.carry}, default=str)])
    hand = Hand.objects.filter(table=table).order_by("-number").first()
    if hand is not None:
        lines += _section("hand", [
            f"id {hand.pk} #{hand.number} status {hand.status} version {hand.version} phase_seq {hand.phase_seq} "
            f"deadline {hand.deadline} started {hand.started_at} finished {hand.finished_at}",
            f"players {json.dumps(hand.players)}", f"state {json.dumps(hand.state, default=str)}"])
        actions = HandAction.objects.filter(hand=hand).order_by("-seq")[:12]
        lines += _section("last actions", [
            f"{a.seq} at {a.at:%H:%M:%S.%f} seat {a.seat} user {a.user_id} auto {a.auto} version {a.version} "
            f"{json.dumps(a.action)[:160]}" for a in reversed(list(actions))])
    seats = list(Seat.objects.filter(table=table).order_by("index"))
    lines += _section("seats", [f"{s.index} user {s.user_id} {s.status} joined {s.joined_at:%H:%M:%S.%f} last seen "
                                f"{s.last_seen} disconnected {s.disconnected}" for s in seats])
    lines += _section("watchdog repairs at the table", [
        f"{r.at:%H:%M:%S.%f} {r.kind} hand {r.hand_id}: {r.cause}" for r in Repair.objects.filter(table=table)])
    lines += _section("timers in flight", _timers(hand, table.pk))
    lines += _section("sweeper", _sweeper())
    users = sorted({s.user_id for s in seats} | {p["user"] for p in (hand.players if hand else [])}
                   | set(_bot_users(bots, stall.table_id).values()))
    lines += _section("channel layer", _subscribers(table.pk, users))
    lines += bot_part
    for proc in infra.processes():
        lines += _section(f"{proc.name} log (tail)", _tail(proc.log, 40))
    return "\n".join(lines)


def _section(title: str, body: list[str]) -> list[str]:
    return [f"--- {title}", *(body or ["(none)"]), ""]


def _timers(hand: Hand | None, table_id: int) -> list[str]:
    """The Celery tasks about this hand (or a start timer of this table) the worker holds, and
    the broker's queues and unacknowledged messages."""
    from config.celery_app import app

    def about(args: list[Any], name: str) -> bool:
        if not args:
            return False
        if name.endswith("start_hand"):
            return bool(args[0] == table_id)
        return hand is not None and args[0] == hand.pk

    lines = []
    try:
        inspect = app.control.inspect(timeout=2)
        now = time.time()
        for kind in ("scheduled", "reserved", "active"):
            replies = getattr(inspect, kind)() or {}
            names: dict[str, int] = {}
            overdue = 0
            for worker, tasks in replies.items():
                for task in tasks:
                    request = task.get("request", task)
                    args, name = list(request.get("args") or []), str(request.get("name", ""))
                    names[name] = names.get(name, 0) + 1
                    eta = task.get("eta") or request.get("eta")
                    if eta and datetime.fromisoformat(eta).timestamp() < now:
                        overdue += 1
                    if kind == "active":  # what the pool is busy with, and for how long
                        started = request.get("time_start")
                        lines.append(f"active on {worker}: {name} {args} for "
                                     f"{now - started if started else float('nan'):.1f} s")
                    elif about(args, name):
                        lines.append(f"{kind} on {worker}: {name} {args} eta {eta}")
            lines.append(f"{kind}: {_kinds(names)}; past their eta {overdue}; {len(replies)} worker(s) replied")
    except Exception as exc:  # noqa: BLE001 - a dump shows what it could not read
        lines.append(f"inspect failed: {exc!r}")
    lines += _broker(about)
    return lines


def _broker(about: Callable[[list[Any], str], bool]) -> list[str]:
    import redis

    lines = []
    try:
        client = redis.Redis.from_url(settings.CELERY_BROKER_URL, socket_timeout=2)
        for key in sorted(client.scan_iter(count=500)):
            if client.type(key) == b"list":
                lines.append(f"queue {key!r}: {client.llen(key)} message(s)")
        unacked = client.hgetall("unacked")
        lines.append(f"unacked: {len(unacked)} message(s)")
        for tag, raw in unacked.items():
            message = json.loads(raw)[0]
            headers = message.get("headers", {})
            body = json.loads(base64.b64decode(message["body"]))
            args = body[0] if isinstance(body, list) else []
            if about(list(args), str(headers.get("task", ""))):
                lines.append(f"unacked {tag!r}: {headers.get('task')} {args} eta {headers.get('eta')}")
    except Exception as exc:  # noqa: BLE001
        lines.append(f"broker read failed: {exc!r}")
    return lines


def _sweeper() -> list[str]:
    from django.core.cache import cache

    tick = Clock.objects.filter(name=SWEEPER_CLOCK).values_list("last_tick", flat=True).first()
    lines = [f"last tick {tick} ({(timezone.now() - tick).total_seconds():.1f} s ago)" if tick else "never ticked"]
    try:
        lines.append(f"last report {cache.get(SWEEPER_REPORT_KEY)!r}")
    except Exception as exc:  # noqa: BLE001
        lines.append(f"last report unreadable: {exc!r}")
    return lines


def _subscribers(table_id: int, users: list[int]) -> list[str]:
    """``PUBSUB NUMSUB`` of the channel layer's Redis channels for the table's and its players'
    groups (channels_redis's pub/sub layer names a group's channel ``<prefix>__group__<group>``),
    so one subscription per server process that has a member of the group."""
    import redis

    config = settings.CHANNEL_LAYERS["default"].get("CONFIG", {})
    prefix = config.get("prefix", "asgi")
    names = [f"{prefix}__group__table.{table_id}", *(f"{prefix}__group__user.{u}" for u in users)]
    try:
        client = redis.Redis.from_url(config["hosts"][0], socket_timeout=2)
        counts = client.pubsub_numsub(*names)
    except Exception as exc:  # noqa: BLE001
        return [f"PUBSUB NUMSUB failed: {exc!r}"]
    return [f"{name.decode() if isinstance(name, bytes) else name}: {n} subscriber(s)" for name, n in counts]


def _bot_users(bots: list[tuple[str, Bot]], table_id: int) -> dict[str, int]:
    from django.contrib.auth import SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore

    found = {}
    for name, bot in bots:
        if bot.table_id == table_id:
            user = SessionStore(session_key=bot.session).get(SESSION_KEY)
            if user is not None:
                found[name] = int(user)
    return found


def _bot_lines(bots: list[tuple[str, Bot]], table_id: int) -> list[str]:
    users, now, lines = _bot_users(bots, table_id), time.monotonic(), []
    for name, bot in bots:
        if bot.table_id != table_id:
            continue
        lines.append(f"{name} user {users.get(name)} on {bot.connected_to} (connection {bot.connection}) done "
                     f"{bot.done.is_set()} stop {bot.stop.is_set()} seen version {bot.seen_version} last state "
                     f"{now - bot.last_state:.1f} s ago, last hand {bot.last_hand}, hands {len(bot.stats.hands)}, "
                     f"pending {len(bot.pending)}, leave sent {bot.leave_sent}, join sent {bot.join_sent}, "
                     f"failures {bot.stats.errors[-3:]}")
        lines += [f"    {at - now:8.2f} s  {kind:<8} v{version}  {phase}" for at, kind, version, phase in bot.frames]
    return lines


def _tail(path: Path, n: int) -> list[str]:
    try:
        return path.read_text(errors="replace").splitlines()[-n:]
    except OSError as exc:
        return [f"unreadable: {exc}"]


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
    alone: bool = False  # each bot winds down by itself (the fleet before its bots wound down together)


@dataclass
class RunResult:
    hands: int
    seconds: float
    sessions: int | None
    failures: list[str]
    repairs: dict[str, int] = field(default_factory=dict)  # the watchdog's, by kind
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
        return Hand.objects.filter(table_id__in=table_ids).exclude(status=Hand.Status.ACTIVE).count()
    finally:
        connection.close()


def _repairs(table_ids: list[int]) -> dict[str, int]:
    try:
        found: dict[str, int] = {}
        for kind in Repair.objects.filter(table_id__in=table_ids).values_list("kind", flat=True):
            found[kind] = found.get(kind, 0) + 1
        return found
    finally:
        connection.close()


def _tables_open(pairs: list[tuple[str, str]], tables: int) -> list[TablePlan]:
    try:
        return tables_open(pairs, tables)
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
        """Restart the servers and the worker with new start and showdown pauses."""
        self.delays_set(*rng.choice(DELAYS))
        for proc in self.infra.processes():
            proc.kill()
        for i in range(len(self.infra.servers)):
            self.infra.server_start(i)
        self.infra.worker_start()

    async def run_one(self, n: int, rng: random.Random) -> RunResult:
        """One run: fresh tables, bots under newly drawn conditions, and the monitor beside them;
        over when every bot is done, or at the monitor's first stall (with its dump)."""
        o = self.options
        conditions = Conditions.draw(rng, o.think, o.jitter)
        pairs = game_modes(o.game)
        plan = await self.query(_tables_open, pairs, o.tables)
        table_ids = [t.table_id for t in plan]
        bots = bots_for(plan, self.infra.urls, "", o.hands)
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
        monitor = asyncio.ensure_future(self.monitor(table_ids, named, started + o.run_timeout))
        either: list[asyncio.Future[Any]] = [players, monitor]
        await asyncio.wait(either, return_when=asyncio.FIRST_COMPLETED)
        stall = monitor.result() if monitor.done() else None
        if stall is not None:
            text = await self.query(_dumped, stall, self.infra, named)
            players.cancel()
            await asyncio.gather(players, return_exceptions=True)
            return RunResult(0, time.monotonic() - started, None, [], stall=stall, dump=text)
        monitor.cancel()
        results = await players
        seconds = time.monotonic() - started
        failures = [f"{name}: {r!r}" for (name, _b), r in zip(named, results, strict=True) if isinstance(r, Exception)]
        failures += [e for _n, b in named for e in b.stats.errors]
        hands = await self.query(_hands_ended, table_ids)
        sessions_after = await self.query(self.sessions)
        sessions = None if sessions_before is None or sessions_after is None else sessions_after - sessions_before - 1
        repairs = await self.query(_repairs, table_ids)
        return RunResult(hands, seconds, sessions, failures, repairs)

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
                     f"watchdog repairs {_kinds(result.repairs)}"
                     + "".join(f"\n    failure: {f}" for f in result.failures[:5]))
        self.out(totals_line(o.runs, int(hands), seconds, sessions, 0) + f", client failures {failures}, "
                 f"watchdog repairs {_kinds(repairs)}")
        return True


def _kinds(counts: dict[str, int]) -> str:
    return ", ".join(f"{kind} {n}" for kind, n in sorted(counts.items())) or "none"


def totals_line(runs: int, hands: int, seconds: float, sessions: int, stalls: int) -> str:
    rate = 60 * hands / seconds if seconds else 0.0
    per100 = 100 * sessions / hands if hands else 0.0
    return (f"total: runs {runs}, hands {hands}, hands/min {rate:.0f}, stalls {stalls}, PostgreSQL sessions "
            f"opened per 100 hands {per100:.1f}")
