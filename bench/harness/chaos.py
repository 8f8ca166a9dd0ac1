"""The chaos run and the soak (bench/README.md "Chaos" and "Soak").

Bots play at tables across every game while faults are injected one at a time, at random
moments: ``kill -9`` of an ASGI server (restarted), ``kill -9`` of the timers' Celery worker or
of the sweeper's with its beat (restarted: queued timers are gone, the sweeper finds the overdue
phases; no sweep runs while the sweeper is down), a PostgreSQL
restart (fast, or immediate: a crash) and a Redis restart (it keeps nothing: the broker's timers
and the channel layer's subscriptions are gone). After each fault the run waits until every
affected bot has had a state frame again and every table has dealt and ended a hand after the
fault, then pauses a random while. At the end the bots finish their sets and leave, a quiet
period lets the sweeper end whatever is left, and the checks run (bench/harness/checks.py).

With no faults the same run is the soak: it samples the processes' memory and the open
connections every few minutes.
"""

from __future__ import annotations

import asyncio
import bisect
import random
import statistics
import time
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Protocol, TypeVar

from django.db import connection
from django.utils import timezone

from bench.harness import facts
from bench.harness.client import Bot
from bench.harness.infra import Infra

T = TypeVar("T")

KINDS = ("asgi", "worker", "postgres", "redis")
#: How long a fault keeps its process down, seconds (the worker sometimes past
#: GAMES_OUTAGE_AFTER, 20 s, so the outage rule is exercised too).
DOWN: dict[str, Callable[[random.Random], float]] = {
    "asgi": lambda rng: rng.uniform(0.5, 3),
    "worker": lambda rng: rng.uniform(1, 8) if rng.random() < 0.5 else rng.uniform(22, 32),
    "postgres": lambda rng: rng.uniform(0, 6),
    "redis": lambda rng: rng.uniform(0.5, 5),
}


class Writer(Protocol):
    def write(self, msg: str) -> Any: ...

    def flush(self) -> Any: ...


@dataclass
class Fault:
    kind: str
    target: str
    at: float  # monotonic seconds, when injected
    wall: datetime
    down: float
    affected: list[Bot] = field(default_factory=list)
    frames: float | None = None  # seconds to the next state frame at every affected bot
    cycle: float | None = None  # seconds to a hand dealt after the fault ending at every table


@dataclass
class Sample:
    elapsed: float
    rss: dict[str, float]
    pg: int | None
    redis: int | None
    hands: int
    failures: int


@dataclass
class Run:
    infra: Infra
    bots: list[Bot]
    table_ids: list[int]
    rng: random.Random
    out: Writer
    stop: asyncio.Event
    kinds: tuple[str, ...] = KINDS
    recover_cap: float = 150.0
    faults: list[Fault] = field(default_factory=list)
    samples: list[Sample] = field(default_factory=list)
    started: float = field(default_factory=time.monotonic)
    ended_faults: float = 0.0
    db: ThreadPoolExecutor = field(default_factory=lambda: ThreadPoolExecutor(1))

    async def query(self, fn: Callable[[], T]) -> T | None:
        """A database read in the run's own thread; None while the database is away."""
        def call() -> T | None:
            try:
                return fn()
            except Exception:  # noqa: BLE001 - the database is restarting: try again later
                return None
            finally:
                connection.close()

        return await asyncio.get_running_loop().run_in_executor(self.db, call)

    def say(self, text: str) -> None:
        self.out.write(f"[{time.monotonic() - self.started:7.1f} s] {text}")
        self.out.flush()

    # --- faults --------------------------------------------------------------------------

    async def faults_inject(self, minutes: float, at_least: int) -> None:
        """Faults one at a time until ``minutes`` have passed and each kind was injected at
        least ``at_least`` times: in rounds, each round every kind once in a random order."""
        end = self.started + 60 * minutes
        counts: Counter[str] = Counter()
        while time.monotonic() < end or any(counts[k] < at_least for k in self.kinds):
            kinds = list(self.kinds)
            self.rng.shuffle(kinds)
            for kind in kinds:
                if time.monotonic() >= end and all(counts[k] >= at_least for k in self.kinds):
                    break
                await asyncio.sleep(self.rng.uniform(2, 10))
                fault = await self.inject(kind)
                counts[kind] += 1
                await self.recovered(fault)
        self.ended_faults = time.monotonic()

    async def inject(self, kind: str) -> Fault:
        infra, down = self.infra, DOWN[kind](self.rng)
        loop = asyncio.get_running_loop()
        if kind == "asgi":
            # A random server among those bots are connected to (bots that lost theirs gather
            # on the other one, as behind a proxy).
            busy = [i for i, url in enumerate(infra.urls) if any(b.connected_to == url for b in self.bots)]
            i = self.rng.choice(busy) if busy else infra.rng_server(self.rng)
            fault = self._fault(kind, infra.servers[i].name, down)
            fault.affected = [b for b in self.bots if b.connected_to == infra.urls[i]]
            infra.servers[i].kill()
            await asyncio.sleep(down)
            await loop.run_in_executor(None, infra.server_start, i)
        elif kind == "worker":
            # The timers' worker or the sweeper's (with beat), one at a time.
            timers = self.rng.random() < 0.5
            proc = infra.worker if timers else infra.sweeper
            assert proc is not None
            fault = self._fault(kind, "timers" if timers else "sweeper+beat", down)
            proc.kill()
            await asyncio.sleep(down)
            (infra.worker_start if timers else infra.sweeper_start)()
        elif kind == "postgres":
            mode = self.rng.choice(["fast", "immediate"])
            fault = self._fault(kind, f"stop -m {mode}", down)
            await loop.run_in_executor(None, infra.pg_restart, down, mode)
        else:
            fault = self._fault(kind, "kill -9", down)
            assert infra.redis is not None
            infra.redis.kill()
            await asyncio.sleep(down)
            await loop.run_in_executor(None, infra.redis_start)
        if kind != "asgi":
            fault.affected = [b for b in self.bots if not b.done.is_set()]
        self.faults.append(fault)
        self.say(f"{kind} {fault.target}: down {down:.1f} s, {len(fault.affected)} bots affected")
        return fault

    def _fault(self, kind: str, target: str, down: float) -> Fault:
        return Fault(kind=kind, target=target, at=time.monotonic(), wall=timezone.now(), down=down)

    async def recovered(self, fault: Fault) -> None:
        """Wait until every affected bot has had a state frame since the fault, and every
        table has ended a hand dealt after it (or the cap)."""
        while time.monotonic() - fault.at < self.recover_cap:
            if fault.frames is None:
                fault.frames = frames_recovery(fault)
            if fault.cycle is None:
                fault.cycle = await self.query(lambda: cycle_recovery(fault, self.table_ids))
            if fault.frames is not None and fault.cycle is not None:
                self.say(f"{fault.kind}: state frames again after {fault.frames:.1f} s, "
                         f"every table played a hand after {fault.cycle:.1f} s")
                return
            await asyncio.sleep(0.5)
        self.say(f"{fault.kind}: NOT recovered within {self.recover_cap:.0f} s")

    # --- samples -------------------------------------------------------------------------

    async def sample(self) -> Sample:
        infra = self.infra
        pg = await asyncio.get_running_loop().run_in_executor(None, infra.pg_connections)
        redis = await asyncio.get_running_loop().run_in_executor(None, infra.redis_clients)
        hands = await self.query(facts.hands_ended)
        s = Sample(elapsed=time.monotonic() - self.started, rss={p.name: p.rss_mib() for p in infra.processes()},
                   pg=pg, redis=redis, hands=hands or 0, failures=sum(len(b.stats.errors) for b in self.bots))
        self.samples.append(s)
        rss = "  ".join(f"{name} {mib:.0f} MiB" for name, mib in s.rss.items())
        self.say(f"sample: RSS {rss}; PostgreSQL connections {s.pg}; Redis clients {s.redis}; "
                 f"hands ended {s.hands}; client failures {s.failures}")
        return s

    async def sampler(self, every: float) -> None:
        while True:
            await asyncio.sleep(every)
            await self.sample()

    async def quiet(self, cap: float) -> bool:
        """The final quiet period: wait (the sweeper running) until no hand is in play."""
        end = time.monotonic() + cap
        while time.monotonic() < end:
            active = await self.query(facts.hands_in_play_count)
            if active == 0:
                return True
            await asyncio.sleep(1)
        return False


def frames_recovery(fault: Fault) -> float | None:
    """Seconds from the fault to the first state frame after it, at the slowest affected bot;
    None until every affected bot (still playing) has had one."""
    worst = 0.0
    for bot in fault.affected:
        times = bot.stats.state_at
        i = bisect.bisect_right(times, fault.at)
        if i == len(times):
            if bot.done.is_set():
                continue
            return None
        worst = max(worst, times[i] - fault.at)
    return worst


def cycle_recovery(fault: Fault, table_ids: list[int]) -> float | None:
    """Seconds from the fault until every table has ended a hand dealt after it; None before."""
    ends = facts.first_ends_after(table_ids, fault.wall)
    if len(ends) < len(table_ids):
        return None
    return max((end - fault.wall).total_seconds() for end in ends.values())


# --- the report ----------------------------------------------------------------------------

def hands_by_window(faults: list[Fault], table_ids: list[int]) -> list[Counter[str]]:
    """Hands ended (settled / voided) in each stretch, by their end time."""
    starts: list[datetime] = [f.wall for f in faults]
    counts: list[Counter[str]] = [Counter() for _ in range(len(faults) + 1)]
    for status, _started, finished in facts.hand_ends(table_ids):
        counts[bisect.bisect_right(starts, finished)][status] += 1
    return counts


def errors_by_window(faults: list[Fault], bots: list[Bot]) -> list[Counter[str]]:
    starts = [f.at for f in faults]
    counts: list[Counter[str]] = [Counter() for _ in range(len(faults) + 1)]
    for bot in bots:
        for at, code in bot.stats.seen_at:
            counts[bisect.bisect_right(starts, at)][code] += 1
    return counts


def _p50_max(values: list[float | None]) -> str:
    known = [v for v in values if v is not None]
    missing = len(values) - len(known)
    if not known:
        return "–" if not missing else f"{missing} not recovered"
    text = f"{statistics.median(known):.1f} / {max(known):.1f}"
    return text + (f" ({missing} not recovered)" if missing else "")


def fault_table(faults: list[Fault], hands: list[Counter[str]], errors: list[Counter[str]]) -> list[str]:
    """One line per fault kind: times, hands completed and voided, error frames by code,
    recovery p50 / max."""
    rows = [f"{'fault':<9} {'times':>5} {'completed':>9} {'voided':>6}  {'frames s p50/max':<18} "
            f"{'cycle s p50/max':<18} errors seen by clients (by code)"]
    kinds = ["warm-up", *dict.fromkeys(f.kind for f in faults)]
    for kind in kinds:
        idx = [0] if kind == "warm-up" else [i + 1 for i, f in enumerate(faults) if f.kind == kind]
        done = sum(hands[i].get(facts.SETTLED, 0) for i in idx)
        void = sum(hands[i].get(facts.VOIDED, 0) for i in idx)
        seen: Counter[str] = Counter()
        for i in idx:
            seen.update(errors[i])
        mine = [f for f in faults if f.kind == kind]
        codes = ", ".join(f"{c} {n}" for c, n in seen.most_common()) or "none"
        rows.append(f"{kind:<9} {len(mine) if mine else '-':>5} {done:>9} {void:>6}  "
                    f"{_p50_max([f.frames for f in mine]) if mine else '-':<18} "
                    f"{_p50_max([f.cycle for f in mine]) if mine else '-':<18} {codes}")
    return rows


def samples_table(samples: list[Sample]) -> list[str]:
    if not samples:
        return []
    names = list(samples[0].rss)
    rows = [f"{'minute':>6} " + " ".join(f"{n + ' MiB':>13}" for n in names)
            + f" {'pg conns':>8} {'redis clients':>13} {'hands':>6} {'failures':>8}"]
    for s in samples:
        rows.append(f"{s.elapsed / 60:>6.1f} " + " ".join(f"{s.rss.get(n, 0):>13.1f}" for n in names)
                    + f" {s.pg if s.pg is not None else '?':>8} {s.redis if s.redis is not None else '?':>13}"
                    f" {s.hands:>6} {s.failures:>8}")
    return rows


def describe(value: Any) -> str:
    return "none" if not value else str(value)
