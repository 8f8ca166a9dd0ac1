"""``python -m bench.harness chaos``: crash recovery proved by a chaos run, and the soak
(bench/README.md "Chaos", "Soak").

    DATABASE_URL=postgres://postgres@127.0.0.1:55432/chaos REDIS_URL=redis://127.0.0.1:6390/0 \\
        python -m bench.harness chaos --minutes 10 --tables 6 --at-least 5

It starts the distributed mode itself, on its own PostgreSQL cluster and redis-server (never the
shared ones: it refuses ports 5432 and 6379): two ASGI servers, a Celery worker with beat, and
bots at tables across every game, some of them private rooms (``--rooms``), and watchers
(``--watchers``) at public tables and rooms. For ``--minutes`` it kills and restarts a random process at
random moments, then lets the bots finish and leave, waits for every hand to end, and prints per
fault kind the times injected, hands completed and voided, error frames seen by the clients (by
code) and the time to recover; then ``ledger_check`` and the checks of bench/harness/checks.py
(the rooms' hands settled as any, no watcher shown a hidden card).
Exits 1 if any check fails. ``--faults none`` is the soak: no faults, a sample of the processes'
memory and the open connections every ``--sample-every`` seconds. Everything it started is
stopped on exit.
"""

from __future__ import annotations

import asyncio
import os
import random
import time
from io import StringIO
from typing import Any

from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connection

from bench.harness import checks
from bench.harness.chaos import KINDS, Run, errors_by_window, fault_table, hands_by_window, samples_table
from bench.harness.fleet import (
    bots_for,
    bots_stats,
    codes_line,
    game_modes,
    per_bot_line,
    rooms_default,
    tables_open,
)
from bench.harness.infra import Infra, exit_on_signals
from bench.harness.rooms import http_url
from bench.harness.watcher import Watcher, watchers_line, watchers_open, watchers_problems


class Command(BaseCommand):
    help = "Kill and restart the platform's processes while bots play; check that every hand and coin survived."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--minutes", type=float, default=10, help="how long faults are injected (or the soak)")
        parser.add_argument("--tables", type=int, default=6)
        parser.add_argument("--at-least", type=int, default=1, help="go on until each fault kind was injected "
                            "this many times")
        parser.add_argument("--faults", default=",".join(KINDS),
                            help=f"comma-separated fault kinds among {', '.join(KINDS)}; 'none' for a soak")
        parser.add_argument("--seed", type=int, default=None, help="random seed of the faults and their moments")
        parser.add_argument("--sample-every", type=float, default=300, help="seconds between memory samples")
        parser.add_argument("--warm-up", type=float, default=15, help="seconds of play before the first fault")
        parser.add_argument("--quiet", type=float, default=240, help="at most this long for the last hands to end")
        parser.add_argument("--ports", default="8031,8032", help="the ASGI servers' ports")
        parser.add_argument("--rooms", type=int, default=None,
                            help="how many of the tables are private rooms (default: a third, at least one)")
        parser.add_argument("--watchers", type=int, default=None,
                            help="sockets watching tables, rooms and public ones in turn (default: one per two tables)")

    def handle(self, *args: Any, **o: Any) -> None:
        kinds = tuple(k for k in o["faults"].split(",") if k and k != "none")
        unknown = set(kinds) - set(KINDS)
        if unknown:
            raise CommandError(f"unknown fault kinds: {', '.join(sorted(unknown))}")
        seed = o["seed"] if o["seed"] is not None else random.SystemRandom().randrange(10**6)
        ports = tuple(int(p) for p in o["ports"].split(","))
        infra = Infra(os.environ.get("DATABASE_URL", ""), os.environ.get("REDIS_URL", ""), ports=ports)

        exit_on_signals()
        self.stdout.write(f"seed {seed}; {infra.describe()}")
        try:
            infra.start_all()
            ok = self._run(infra, kinds, seed, o)
        finally:
            connection.close()
            infra.stop_all()
        if not ok:
            raise SystemExit(1)

    def _run(self, infra: Infra, kinds: tuple[str, ...], seed: int, o: dict[str, Any]) -> bool:
        rooms = rooms_default(o["tables"]) if o["rooms"] is None else o["rooms"]
        plan = tables_open(game_modes(), o["tables"], rooms=rooms, base=http_url(infra.urls[0]))
        table_ids = [t.table_id for t in plan]
        room_ids = [t.table_id for t in plan if t.room_code]
        self.stdout.write("tables: " + ", ".join(f"{t.table_id} {t.game} {t.mode}".rstrip()
                                                 + (f" (room {t.room_code})" if t.room_code else "") for t in plan))
        stop = asyncio.Event()
        bots = bots_for(plan, infra.urls, "", 0, stop)
        watchers = watchers_open(plan, max(2, o["tables"] // 2) if o["watchers"] is None else o["watchers"],
                                 infra.urls, stop)
        connection.close()
        run = Run(infra=infra, bots=bots, table_ids=table_ids, rng=random.Random(seed), out=self.stdout,
                  stop=stop, kinds=kinds)
        quiet_ok = asyncio.run(self._play(run, o, watchers))
        stats = bots_stats(bots)
        hands = hands_by_window(run.faults, table_ids)
        errors = errors_by_window(run.faults, bots)
        w = self.stdout.write
        w("")
        for line in fault_table(run.faults, hands, errors):
            w(line)
        w(f"bots {len(bots)} at {len(plan)} tables: hands completed {len(stats.hands)}, voided {len(stats.voided)}; "
          f"reconnects {stats.reconnects}; time offline {stats.offline:.1f} s (all bots); "
          f"actions re-sent {stats.resent} (already applied {stats.duplicates}); "
          f"error frames seen: {codes_line(stats)}; client failures {len(stats.errors)}")
        w(per_bot_line(bots))
        w(watchers_line(watchers))
        w(checks.repairs_line())
        for error in stats.errors[:20]:
            w(f"  failure: {error}")
        for line in samples_table(run.samples):
            w(line)
        results = checks.checks_run()
        results["every fault recovered"] = [
            f"{f.kind} at {f.wall:%H:%M:%S}: frames {f.frames}, cycle {f.cycle}"
            for f in run.faults if f.frames is None or f.cycle is None
        ]
        results["no client failures"] = stats.errors[:20]
        results["room hands settled as any"] = checks.rooms_settled(room_ids)
        results["no watcher shown a hidden card"] = watchers_problems(watchers)
        if not quiet_ok:
            results["every hand ended settled or voided"].insert(0, "hands still in play after the quiet period")
        ledger = StringIO()
        try:
            call_command("ledger_check", stdout=ledger, stderr=ledger)
            results["ledger_check"] = []
        except CommandError as exc:
            results["ledger_check"] = [str(exc), *ledger.getvalue().splitlines()[-10:]]
        w("")
        for name, problems in results.items():
            w(f"{'OK  ' if not problems else 'FAIL'} {name}" + (f": {len(problems)} problems" if problems else ""))
            for problem in problems[:10]:
                w(f"       {problem}")
        return not any(results.values())

    async def _play(self, run: Run, o: dict[str, Any], watchers: list[Watcher]) -> bool:
        deadline = time.monotonic() + 60 * o["minutes"] + 3600
        players = asyncio.gather(*(b.run(deadline) for b in run.bots), return_exceptions=True)
        watching = asyncio.gather(*(w.run(deadline) for w in watchers), return_exceptions=True)
        await run.sample()
        sampler = asyncio.create_task(run.sampler(o["sample_every"]))
        await asyncio.sleep(o["warm_up"])
        await run.sample()  # everything loaded and playing: the figures to compare with the end
        if run.kinds:
            await run.faults_inject(o["minutes"], o["at_least"])
        else:
            await asyncio.sleep(max(0.0, run.started + 60 * o["minutes"] - time.monotonic()))
        run.say("winding down: the bots end their sets and leave")
        run.stop.set()
        try:
            results = await asyncio.wait_for(players, timeout=o["quiet"])
        except TimeoutError:
            run.say("some bots did not leave in time")
            results = []
        for bot, outcome in zip(run.bots, results, strict=False):
            if isinstance(outcome, BaseException):
                bot.stats.errors.append(f"table {bot.table_id}: {type(outcome).__name__}: {outcome}")
        quiet_ok = await run.quiet(o["quiet"])
        for watcher, outcome in zip(watchers, await watching, strict=True):
            if isinstance(outcome, BaseException):
                watcher.problems.append(f"table {watcher.table_id}: {type(outcome).__name__}: {outcome}")
        sampler.cancel()
        await run.sample()
        return quiet_ok
