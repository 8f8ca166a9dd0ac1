"""``python -m bench.harness stall_hunt``: many short runs of bots at fresh tables until the
first stall (bench/README.md "Stalls"; the rules in bench/harness/stall.py, the dump in
bench/harness/stall_dump.py).

    DATABASE_URL=postgres://postgres@127.0.0.1:55434/stall REDIS_URL=redis://127.0.0.1:6392/0 \\
        python -m bench.harness stall_hunt --runs 50 --tables 20 --hands 10 --no-client-sync

It starts the distributed mode once, on its own PostgreSQL cluster and redis-server (never the
shared ones): two ASGI servers and a Celery worker with beat. Each run opens fresh tables and
plays ``--hands`` hands at each under conditions drawn from ``--seed``: the bots' think time
and read jitter, and which server each bot uses; with ``--restart-every K`` the servers and the
worker are restarted every K runs with other start and showdown pauses. Some of each run's tables
are private rooms (``--rooms``), opened and entered through the pages, and watchers
(``--watchers``) check every frame they get for hidden cards. It prints each run's
hands, hands per minute and PostgreSQL sessions opened, and the totals, then ``ledger_check``;
at the first stall it prints and writes the dump, and exits 1 (also when the ledger fails).
Everything it started is stopped on exit.
"""

from __future__ import annotations

import asyncio
import os
import random
from io import StringIO
from pathlib import Path
from typing import Any

from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connection

from bench.harness.fleet import rooms_default
from bench.harness.infra import Infra, exit_on_signals
from bench.harness.stall import Hunt, Options
from games.engine.registry import GAMES


class Command(BaseCommand):
    help = "Short bot runs under random conditions until a table stops advancing; dumps the stalled table."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--runs", type=int, default=20)
        parser.add_argument("--tables", type=int, default=20)
        parser.add_argument("--hands", type=int, default=10, help="hands each bot sees before the table winds down")
        parser.add_argument("--game", default=GAMES[0], choices=[*GAMES, "all"],
                            help="a game (its first mode), or all: the tables take every game and mode in turn")
        parser.add_argument("--seed", type=int, default=None, help="random seed of every run's conditions")
        parser.add_argument("--no-client-sync", action="store_true",
                            help="bots never ask for a snapshot when no state frame comes (a lost frame stays lost)")
        parser.add_argument("--margin", type=float, default=10.0, help="seconds past due before a table is stalled")
        parser.add_argument("--think", type=float, default=1.5, help="at most this think time before an action, s")
        parser.add_argument("--jitter", type=float, default=0.2, help="at most this delay before a frame is read, s")
        parser.add_argument("--run-timeout", type=float, default=240.0, help="seconds a run may take")
        parser.add_argument("--restart-every", type=int, default=0,
                            help="restart the servers and the worker every K runs with other start/showdown pauses")
        parser.add_argument("--start-delay", type=float, default=1.0, help="GAMES_START_DELAY of the first runs")
        parser.add_argument("--next-hand-delay", type=float, default=1.0,
                            help="GAMES_NEXT_HAND_DELAY of the first runs")
        parser.add_argument("--alone", action="store_true",
                            help="each bot winds down by itself once it has seen its hands, not with its table "
                            "(a check that the hunt catches a bot left alone)")
        parser.add_argument("--rooms", type=int, default=None,
                            help="how many of each run's tables are private rooms (default: a third, at least one)")
        parser.add_argument("--watchers", type=int, default=None,
                            help="sockets watching each run's tables, rooms and public ones in turn "
                            "(default: one per two tables)")
        parser.add_argument("--ports", default="8041,8042", help="the ASGI servers' ports")
        parser.add_argument("--run-dir", default="", help="where the logs and the dump go (default: a new temp dir)")

    def handle(self, *args: Any, **o: Any) -> None:
        seed = o["seed"] if o["seed"] is not None else random.SystemRandom().randrange(10**6)
        ports = tuple(int(p) for p in o["ports"].split(","))
        extra: dict[str, Any] = {"run_dir": Path(o["run_dir"])} if o["run_dir"] else {}
        if extra:
            extra["run_dir"].mkdir(parents=True, exist_ok=True)
        infra = Infra(os.environ.get("DATABASE_URL", ""), os.environ.get("REDIS_URL", ""), ports=ports, **extra)
        options = Options(runs=o["runs"], tables=o["tables"], hands=o["hands"],
                          game=None if o["game"] == "all" else o["game"], seed=seed,
                          client_sync=not o["no_client_sync"], margin=o["margin"], think=o["think"],
                          jitter=o["jitter"], run_timeout=o["run_timeout"], restart_every=o["restart_every"],
                          alone=o["alone"],
                          rooms=rooms_default(o["tables"]) if o["rooms"] is None else o["rooms"],
                          watchers=max(2, o["tables"] // 2) if o["watchers"] is None else o["watchers"])

        exit_on_signals()
        self.stdout.write(f"seed {seed}; {infra.describe()}; client sync {'on' if options.client_sync else 'off'}")
        hunt = Hunt(infra=infra, options=options, out=self._say)
        hunt.delays_set(o["start_delay"], o["next_hand_delay"])
        try:
            infra.start_all()
            connection.close()
            ok = asyncio.run(hunt.hunt())
            ok = self._ledger_ok() and ok
        finally:
            connection.close()
            infra.stop_all()
        if not ok:
            raise SystemExit(1)

    def _ledger_ok(self) -> bool:
        """``ledger_check`` over everything the runs settled, rooms and public tables alike."""
        out = StringIO()
        try:
            call_command("ledger_check", stdout=out, stderr=out)
        except CommandError as exc:
            self._say(f"FAIL ledger_check: {exc}\n{out.getvalue()[-2000:]}")
            return False
        self._say("OK   ledger_check")
        return True

    def _say(self, text: str) -> None:
        self.stdout.write(text)
        self.stdout.flush()
