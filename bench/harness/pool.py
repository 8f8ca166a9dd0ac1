"""The bots of ``python -m bench.harness bots --procs N`` split between N processes.

Each process plays its share of the tables (dealt round-robin) in its own asyncio loop with its
own connections, so the solver time of one process's bots delays the frames of that process
only. The processes are started (``spawn``: a fresh interpreter each) and set up Django before
the clock starts; all of them begin at once, and each sends back what its bots saw. The parent
merges the statistics as samples (latencies concatenated, never percentiles averaged).
"""

from __future__ import annotations

import asyncio
import dataclasses
import multiprocessing
import queue
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from bench.harness.stats import BotStats

T = TypeVar("T")
#: How long the parent waits for a message before it checks that every process is still alive.
POLL = 0.5
#: Seconds a process has to start and set up Django before it is given up (a loaded machine).
READY_WITHIN = 120.0


def shares(items: list[T], procs: int) -> list[list[T]]:
    """``items`` dealt round-robin into at most ``procs`` shares, none of them empty."""
    n = max(1, min(procs, len(items)))
    return [items[i::n] for i in range(n) if items[i::n]]


@dataclass
class Played:
    """What one process's bots saw: their statistics merged (failures of bots that crashed
    included), and each bot's own reconnects, time offline and error frames (for the worst
    bot's line)."""

    stats: BotStats
    per_bot: list[BotStats]


def per_bot_figures(stats: BotStats) -> BotStats:
    """Only the figures of a bot that the worst bot's line reads."""
    return BotStats(reconnects=stats.reconnects, offline=stats.offline, seen=stats.seen.copy())


def merged(played: list[Played], errors: list[str] | None = None) -> Played:
    """Every process's figures as one run's: samples concatenated, counts added (as
    :meth:`BotStats.merge` merges the bots of one process); ``errors`` are failures of the
    processes themselves."""
    stats = BotStats(errors=list(errors or []))
    per_bot: list[BotStats] = []
    for part in played:
        stats.merge(part.stats)
        per_bot += part.per_bot
    return Played(stats, per_bot)


def _child(index: int, share: list[dict[str, Any]], urls: list[str], origin: str, hands: int,
           go: Any, deadline: Any, out: Any) -> None:
    """One bot process: set up, report ready, wait for the start, play its share, report."""
    import django

    django.setup()
    from bench.harness.fleet import TablePlan, bots_for, bots_run

    plan = [TablePlan(**table) for table in share]
    out.put(("ready", index, None))
    go.wait()

    async def play() -> Played:
        bots = bots_for(plan, urls, origin, hands)
        stats = await bots_run(bots, deadline.value)
        return Played(stats, [per_bot_figures(b.stats) for b in bots])

    out.put(("done", index, asyncio.run(play())))


def pool_run(plan: list[Any], urls: list[str], origin: str, hands: int, timeout: float, procs: int,
             on_start: Callable[[], None] = lambda: None,
             on_end: Callable[[], None] = lambda: None) -> tuple[Played, float]:
    """Play ``plan`` (fleet.TablePlan rows) with its bots split between ``procs`` processes;
    their figures merged and the seconds from the start to the last process's report.
    ``on_start`` is called once every process is ready, just before they start; ``on_end``
    once every process has reported (or failed)."""
    ctx = multiprocessing.get_context("spawn")
    out, go, deadline = ctx.Queue(), ctx.Event(), ctx.Value("d", 0.0)
    parts = shares([dataclasses.asdict(t) for t in plan], procs)
    children = [ctx.Process(target=_child, args=(i, part, urls, origin, hands, go, deadline, out),
                            name=f"bots-{i + 1}", daemon=True) for i, part in enumerate(parts)]
    errors: list[str] = []
    try:
        for child in children:
            child.start()
        _gather(out, children, "ready", errors, time.monotonic() + READY_WITHIN)
        on_start()
        started = time.monotonic()
        deadline.value = started + timeout
        go.set()
        # a process's bots give up at the deadline; a little more for them to report
        played = _gather(out, children, "done", errors, started + timeout + 60)
        elapsed = time.monotonic() - started
        on_end()
    finally:
        for child in children:
            child.join(timeout=5)
            if child.is_alive():
                child.terminate()
                child.join()
    return merged(list(played.values()), errors), elapsed


def _gather(out: Any, children: list[Any], kind: str, errors: list[str], until: float) -> dict[int, Any]:
    """Wait for every live process's ``kind`` message; a process that died (or is still
    silent at ``until``) is a failure, its bots' figures missing."""
    got: dict[int, Any] = {}
    waiting = {i for i, child in enumerate(children) if child.is_alive() or child.exitcode == 0}
    while waiting - got.keys():
        try:
            what, index, payload = out.get(timeout=POLL)
        except queue.Empty:
            for i in sorted(waiting - got.keys()):
                child = children[i]
                if not child.is_alive() or time.monotonic() > until:
                    waiting.discard(i)
                    state = f"exited with code {child.exitcode}" if not child.is_alive() else "did not report"
                    errors.append(f"bot process {i + 1}: {state} before {kind}")
            continue
        if what == kind:
            got[index] = payload
    return got
