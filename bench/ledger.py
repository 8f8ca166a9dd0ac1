"""Ledger throughput: four-seat hand settlements per second on PostgreSQL.

    .venv/bin/python bench/ledger.py [--seconds 5] [--workers 1,4,8] [--repeat 3]

Uses DATABASE_URL, or creates (and migrates) the database ``cardtables_bench`` on
postgres@127.0.0.1:5432. Workers are processes (each its own Django and connection, so the GIL
plays no part); each settles hands at its own table of four seats, the way tables settle in
production: 3 losers pay 1.00 each, the winner takes the rest, with a 5% commission to the house
(or none). Each figure is the median of interleaved runs. The same run measures ``pgbench -N``
(simple-update) on the same server with the same client counts as the ceiling, then prints the
ratios.
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import os
import re
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Iterable
from dataclasses import dataclass
from glob import glob
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_URL = "postgres://postgres@127.0.0.1:5432/cardtables_bench"
LOSS, COMMISSION = 100, 15  # minor units: each loser pays 1.00, the house takes 5% of the 3.00 pot


def django_setup(url: str) -> None:
    sys.path[:0] = [str(ROOT), str(ROOT / "platform")]
    os.environ.update(DATABASE_URL=url, DATABASE_POOL="false", LOG_LEVEL="WARNING")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")
    import django

    django.setup()


def ensure_database(url: str) -> None:
    import psycopg

    parts = urlparse(url)
    name = parts.path.lstrip("/")
    admin = parts._replace(path="/postgres").geturl()
    with psycopg.connect(admin, autocommit=True) as conn:
        if conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone() is None:
            conn.execute(f'CREATE DATABASE "{name}"')


def prepare_tables(run: str, workers: int) -> list[tuple[str, list[int]]]:
    """A table of four seated players per worker, each with plenty of table money."""
    from accounts.models import User
    from wallet import services

    tables = []
    for w in range(workers):
        table, seats = f"bench-{run}-{w}", []
        for s in range(4):
            user, _ = User.objects.get_or_create(username=f"bench-{run}-{w}-{s}")
            services.wallet_grant(user=user, amount=10**12, idempotency_key=f"{table}:grant:{s}", actor=None)
            services.wallet_buy_in(user=user, table_ref=table, amount=10**12, minimum=0,
                                   idempotency_key=f"{table}:buy:{s}")
            seats.append(user.pk)
        tables.append((table, seats))
    return tables


def backend_cpu_seconds() -> float | None:
    """CPU time of this process's PostgreSQL backend, when the server runs on this machine."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        pid = cursor.fetchone()[0]
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime + stime


def settle_loop(url: str, job: tuple[str, list[int], bool, str], start: Any, seconds: float, out: Any) -> None:
    """One worker process: settle hands back to back until the time is up; report the count and CPU."""
    django_setup(url)
    from wallet import services

    table, seats, commission, run = job
    house = {"commission": COMMISSION} if commission else {}
    won = 3 * LOSS - (COMMISSION if commission else 0)
    server_before = backend_cpu_seconds()
    start.wait()
    client_before, deadline, n = time.process_time(), time.monotonic() + seconds, 0
    while time.monotonic() < deadline:
        winner = seats[n % 4]
        deltas = {seat: (won if seat == winner else -LOSS) for seat in seats}
        services.wallet_settle_hand(hand_ref=f"{table}:{run}:{n}", table_ref=table, deltas=deltas, house=house,
                                    idempotency_key=f"{table}:{run}:{n}")  # a fresh key per hand and run
        n += 1
    client = time.process_time() - client_before
    server_after = backend_cpu_seconds()
    server = None if server_before is None or server_after is None else server_after - server_before
    out.put((n, client, server))


@dataclass
class Measure:
    per_second: float
    client_cpu_ms: float  # per settlement
    server_cpu_ms: float | None


def settlements_per_second(url: str, tables: list[tuple[str, list[int]]], commission: bool, seconds: float) -> Measure:
    ctx = mp.get_context("spawn")
    start, out, run = ctx.Barrier(len(tables) + 1), ctx.Queue(), f"{time.time_ns()}"
    procs = [ctx.Process(target=settle_loop, args=(url, (t, s, commission, run), start, seconds, out))
             for t, s in tables]
    for proc in procs:
        proc.start()
    start.wait()
    began = time.monotonic()
    reports = [out.get(timeout=seconds + 120) for _ in procs]
    elapsed = time.monotonic() - began
    for proc in procs:
        proc.join()
    total = sum(r[0] for r in reports)
    server = None if any(r[2] is None for r in reports) else sum(r[2] for r in reports) * 1000 / total
    return Measure(total / elapsed, sum(r[1] for r in reports) * 1000 / total, server)


def pgbench_binary() -> str:
    found = shutil.which("pgbench") or next(iter(sorted(glob("/usr/lib/postgresql/*/bin/pgbench"), reverse=True)), None)
    if not found:
        raise SystemExit("pgbench not found (install postgresql-client or set PATH)")
    return found


def pgbench_tps(url: str, clients: int, seconds: float) -> float:
    """``pgbench -N`` (simple-update) TPS against a scratch database on the same server."""
    import psycopg

    parts = urlparse(url)
    scratch = parts.path.lstrip("/") + "_pgbench"
    admin = parts._replace(path="/postgres").geturl()
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{scratch}"')
        conn.execute(f'CREATE DATABASE "{scratch}"')
    env = {**os.environ, "PGPASSWORD": parts.password or ""}
    base = [pgbench_binary(), "-h", parts.hostname or "127.0.0.1", "-p", str(parts.port or 5432),
            "-U", parts.username or "postgres"]
    try:
        subprocess.run([*base, "-i", "-s", "1", "-q", scratch], env=env, check=True, capture_output=True)
        run = subprocess.run([*base, "-N", "-c", str(clients), "-j", str(clients), "-T", str(int(seconds)), scratch],
                             env=env, check=True, capture_output=True, text=True)
    finally:
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{scratch}"')
    match = re.search(r"tps = ([\d.]+)", run.stdout)
    assert match, run.stdout
    return float(match.group(1))


def server_settings(url: str) -> str:
    import psycopg

    with psycopg.connect(url) as conn:
        rows = [conn.execute(f"SHOW {name}").fetchone()[0] for name in ("fsync", "synchronous_commit")]
        version = conn.execute("SHOW server_version").fetchone()[0]
    return f"PostgreSQL {version}, fsync={rows[0]}, synchronous_commit={rows[1]}, {os.cpu_count()} CPUs"


def _runs(values: Iterable[float]) -> str:
    return " ".join(f"{v:.0f}" for v in values)


def _cpu(measures: list[Measure]) -> str:
    """Median CPU per settlement: the worker (Python, Django) + its PostgreSQL backend."""
    client = statistics.median(m.client_cpu_ms for m in measures)
    servers = [m.server_cpu_ms for m in measures if m.server_cpu_ms is not None]
    server = f"{statistics.median(servers):.2f}" if servers else "?"
    return f"{client:.2f}+{server} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--workers", default="1,4,8")
    parser.add_argument("--repeat", type=int, default=3, help="interleaved runs per figure; the median is shown")
    args = parser.parse_args()
    url = os.environ.get("DATABASE_URL") or DEFAULT_URL
    if not url.startswith("postgres"):
        raise SystemExit("the ledger bench needs PostgreSQL (DATABASE_URL=postgres://...)")
    ensure_database(url)
    django_setup(url)
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    counts = [int(n) for n in args.workers.split(",")]
    run = str(int(time.time()))
    print(f"{server_settings(url)}; workers are processes; median of {args.repeat} interleaved runs "
          f"of {args.seconds:g} s")
    print(f"{'workers':>7} {'with commission/s':>18} {'without/s':>10} {'commission cost':>16} "
          f"{'pgbench -N tps':>15} {'ratio':>6}   CPU/settlement client+server (with | without)")
    for workers in counts:
        tables = prepare_tables(f"{run}-{workers}", workers)
        runs: dict[str, list[Measure]] = {"with": [], "without": []}
        ceilings: list[float] = []
        for _ in range(args.repeat):  # interleaved, so a noisy neighbour hits every figure alike
            runs["with"].append(settlements_per_second(url, tables, True, args.seconds))
            runs["without"].append(settlements_per_second(url, tables, False, args.seconds))
            ceilings.append(pgbench_tps(url, workers, args.seconds))
        with_c, without = (statistics.median(m.per_second for m in runs[k]) for k in ("with", "without"))
        ceiling = statistics.median(ceilings)
        print(f"{workers:>7} {with_c:>18.0f} {without:>10.0f} {1 - with_c / without:>15.1%} "
              f"{ceiling:>15.0f} {with_c / ceiling:>6.1%}   {_cpu(runs['with'])} | {_cpu(runs['without'])}")
        print(f"{'':>7} runs: {_runs(m.per_second for m in runs['with'])} | "
              f"{_runs(m.per_second for m in runs['without'])} | pgbench {_runs(ceilings)}")
    call_command("ledger_check", verbosity=0, stdout=open(os.devnull, "w"))  # noqa: SIM115
    print("ledger_check: OK")


if __name__ == "__main__":
    main()
