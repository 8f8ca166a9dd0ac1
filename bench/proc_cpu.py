"""CPU time of a live-load run by process kind, per action (bench/README.md "Live play").

    proc_cpu.py db --database-url URL --phase before|after          # the database's figures, JSON
    proc_cpu.py run --out CPU.json --database-url URL --pid asgi=PID ... [--mark FILE] -- COMMAND ...
    proc_cpu.py report --cpu CPU.json --before B.json --after A.json [--bots BOTS.json] [--row ROW.json]
    proc_cpu.py series ROW.json ...                                  # one table row per run

``run`` runs COMMAND (the bots) and measures, while the ``--mark`` file exists (COMMAND creates it
when its bots start and removes it when they have ended; without one, from COMMAND's start to
its end), the CPU time (utime + stime, /proc/<pid>/stat) of:

- each ``--pid KIND=PID`` process with all its descendants (a Celery worker's prefork children;
  the children that ended are in their parent's cutime + cstime once reaped);
- COMMAND itself with all its descendants (its rusage instead if it ends with the mark there);
- the PostgreSQL backends of the run's database: their pids from ``pg_stat_activity`` every
  SAMPLE_EVERY seconds, each backend from its first sample (from 0 if it started in the
  window) to its last, so a backend that ends loses only its time since its last sample (the
  same samples count the backends running a statement and those waiting on a lock);
- the machine (/proc/stat): every CPU's busy time, for what the listed processes leave over.

``db`` reads the run database's hands, actions (automatic or not) and ``pg_stat_database``
counters; the run's figures are the difference of a snapshot taken before the servers start
and one taken after they stop (a backend reports its counters by the time it has ended).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import resource
import signal
import subprocess
import sys
import time
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path[:0] = [str(Path(__file__).resolve().parents[1] / "platform")]
from kernel.background import cpu_ticks  # noqa: E402 - the machine's busy time, read as the product reads it

HZ = os.sysconf("SC_CLK_TCK")
SAMPLE_EVERY = 0.25
#: The kinds, in the order they are printed; "other" is the machine's busy time left over.
KINDS = ("asgi", "timers", "sweeper", "background", "postgres", "redis", "bots")
DB_COUNTERS = ("sessions", "xact_commit", "xact_rollback", "tup_returned", "tup_fetched", "tup_inserted",
               "tup_updated", "tup_deleted", "blks_read", "blks_hit")


# --- /proc ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Proc:
    """One line of /proc/<pid>/stat: times in clock ticks, ``starttime`` in ticks after boot."""

    pid: int
    comm: str
    ppid: int
    utime: int
    stime: int
    cutime: int  # of its children that ended and were reaped
    cstime: int
    starttime: int

    @property
    def own(self) -> int:
        return self.utime + self.stime

    @property
    def with_children(self) -> int:
        return self.utime + self.stime + self.cutime + self.cstime


def parse_stat(text: str) -> Proc:
    """A /proc/<pid>/stat line. The command name is in parentheses and may hold spaces and
    parentheses itself: the fields after it start after the last ")"."""
    head, _, rest = text.rpartition(")")
    pid, _, comm = head.partition("(")
    f = rest.split()  # f[0] is field 3 (state): field n of proc(5) is f[n - 3]
    return Proc(pid=int(pid), comm=comm, ppid=int(f[1]), utime=int(f[11]), stime=int(f[12]),
                cutime=int(f[13]), cstime=int(f[14]), starttime=int(f[19]))


def tree_ticks(procs: dict[int, Proc], roots: Iterable[int]) -> int | None:
    """CPU ticks of the ``roots`` and all their descendants, with the children each has reaped;
    None when no root is there."""
    kids: dict[int, list[int]] = defaultdict(list)
    for p in procs.values():
        kids[p.ppid].append(p.pid)
    stack = [r for r in roots if r in procs]
    if not stack:
        return None
    total, seen = 0, set()
    while stack:
        pid = stack.pop()
        if pid in seen:
            continue
        seen.add(pid)
        total += procs[pid].with_children
        stack += kids[pid]
    return total


def read_stat(pid: int, proc: str = "/proc") -> Proc | None:
    try:
        return parse_stat(Path(proc, str(pid), "stat").read_text())
    except (OSError, ValueError, IndexError):
        return None  # ended meanwhile


def read_procs(proc: str = "/proc") -> dict[int, Proc]:
    found = {}
    for entry in os.scandir(proc):
        if entry.name.isdigit() and (p := read_stat(int(entry.name), proc)) is not None:
            found[p.pid] = p
    return found


def uptime_ticks(text: str) -> int:
    """/proc/uptime's first figure (seconds since boot) in clock ticks."""
    return int(float(text.split()[0]) * HZ)


@dataclass
class Backends:
    """The PostgreSQL backends of one database, sampled during a window that began at
    ``since`` (ticks after boot): each backend counts from its first sample, or from 0 if it
    started in the window, to its last sample. Keyed by (pid, starttime): a pid used again is
    another backend."""

    since: int
    first: dict[tuple[int, int], int] = field(default_factory=dict)
    last: dict[tuple[int, int], int] = field(default_factory=dict)
    live: set[tuple[int, int]] = field(default_factory=set)
    samples: int = 0
    active: int = 0  # backends running a statement, summed over the samples
    locked: int = 0  # of those, waiting on a lock (a row's, a transaction's)

    def sample(self, procs: Iterable[Proc], activity: Iterable[tuple[str | None, str | None]] = ()) -> None:
        """One sample: the backends' processes, and each backend's (state, wait_event_type)
        from pg_stat_activity."""
        for state, wait in activity:
            self.active += state == "active"
            self.locked += state == "active" and wait == "Lock"
        self.samples += 1
        self.live = set()
        for p in procs:
            key = (p.pid, p.starttime)
            if key not in self.first:
                self.first[key] = 0 if p.starttime >= self.since else p.own
            self.last[key] = p.own
            self.live.add(key)

    @property
    def ticks(self) -> int:
        return sum(self.last[k] - self.first[k] for k in self.last)

    @property
    def ended(self) -> int:
        """Backends seen that were gone at the last sample."""
        return len(self.last.keys() - self.live)


# --- the database ------------------------------------------------------------------------------


def _connect(url: str, dbname: str | None = None) -> Any:
    import psycopg
    from psycopg.conninfo import make_conninfo

    return psycopg.connect(make_conninfo(url, **({"dbname": dbname} if dbname else {})), autocommit=True)


def _dbname(url: str) -> str:
    from psycopg.conninfo import conninfo_to_dict

    return str(conninfo_to_dict(url)["dbname"])


def db_snapshot(url: str, phase: str) -> dict[str, int]:
    """The run database's ended hands and actions, and its ``pg_stat_database`` counters, read
    from the ``postgres`` database. Before a run the counters are read last (a second after the
    run database's own connection closed, so that session is in them), after a run first."""

    def counts() -> dict[str, int]:
        with _connect(url) as conn:
            hands = conn.execute("SELECT count(*) FROM games_hand WHERE status <> 'active'").fetchone()[0]
            by_auto = dict(conn.execute("SELECT auto, count(*) FROM games_handaction GROUP BY auto").fetchall())
        return {"hands_ended": hands, "actions_player": by_auto.get(False, 0), "actions_auto": by_auto.get(True, 0)}

    def counters() -> dict[str, int]:
        with _connect(url, "postgres") as conn:
            row = conn.execute(f"SELECT {', '.join(DB_COUNTERS)} FROM pg_stat_database WHERE datname = %s",
                               (_dbname(url),)).fetchone()
        return dict(zip(DB_COUNTERS, row, strict=True))

    if phase == "before":
        figures = counts()
        time.sleep(1)
        return figures | counters()
    return counters() | counts()


# --- the run -----------------------------------------------------------------------------------


def _machine() -> tuple[int, int, int]:
    return cpu_ticks(Path("/proc/stat").read_text())


def _self_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


class Window:
    """The measurements at the start of the window, and the backends sampled through it."""

    def __init__(self, pids: dict[str, list[int]], child: int, db: Any, dbname: str) -> None:
        self.pids, self.child, self.db, self.dbname = pids, child, db, dbname
        self.began = time.monotonic()
        self.backends = Backends(since=uptime_ticks(Path("/proc/uptime").read_text()))
        procs = read_procs()
        self.trees = {kind: tree_ticks(procs, roots) for kind, roots in pids.items()}
        self.child_ticks = tree_ticks(procs, [child]) or 0
        self.machine, self.self_cpu = _machine(), _self_cpu()
        self.sample()

    def sample(self) -> None:
        rows = self.db.execute("SELECT pid, state, wait_event_type FROM pg_stat_activity WHERE datname = %s",
                               (self.dbname,)).fetchall()
        self.backends.sample([p for pid, _, _ in rows if (p := read_stat(pid)) is not None],
                             [(state, wait) for _, state, wait in rows])

    def end(self, child_cpu: float | None) -> dict[str, Any]:
        """The figures at the window's end: when the bots have ended (``child_cpu`` None: the
        command's process tree is read) or when the command has (its rusage, in seconds)."""
        self.sample()
        seconds = time.monotonic() - self.began
        procs = read_procs()
        kinds: dict[str, float | None] = {}
        for kind, roots in self.pids.items():
            before, after = self.trees[kind], tree_ticks(procs, roots)
            kinds[kind] = None if before is None or after is None else (after - before) / HZ
        kinds["postgres"] = self.backends.ticks / HZ if self.backends.last else None
        if child_cpu is None:
            child_cpu = (tree_ticks(procs, [self.child]) or 0) / HZ
        kinds["bots"] = child_cpu - self.child_ticks / HZ
        now = _machine()
        busy, total = now[0] - self.machine[0], now[1] - self.machine[1]
        return {
            "seconds": round(seconds, 3), "cpus": now[2],
            "machine_busy": busy / HZ, "machine_all": total / HZ, "kinds": kinds,
            "sampler": _self_cpu() - self.self_cpu,
            "backends": {"seen": len(self.backends.last), "ended": self.backends.ended,
                         "samples": self.backends.samples, "active": self.backends.active,
                         "locked": self.backends.locked},
        }


def run(args: argparse.Namespace) -> int:
    pids: dict[str, list[int]] = defaultdict(list)
    for item in args.pid:
        kind, _, pid = item.partition("=")
        pids[kind].append(int(pid))
    mark = Path(args.mark) if args.mark else None
    if mark is not None:
        mark.unlink(missing_ok=True)
    db = _connect(args.database_url, "postgres")
    dbname = _dbname(args.database_url)
    child = subprocess.Popen(args.command)  # noqa: S603 - the benchmark's own command line
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C stops the command; its figures still count
    window = None if mark is not None else Window(pids, child.pid, db, dbname)
    figures, next_sample = None, 0.0
    while True:
        pid, status, usage = os.wait4(child.pid, os.WNOHANG if figures is None else 0)
        if pid:
            break
        if window is None and mark is not None and mark.exists():
            window = Window(pids, child.pid, db, dbname)
            next_sample = time.monotonic() + SAMPLE_EVERY
        elif window is not None and mark is not None and not mark.exists():
            figures = window.end(None)  # the bots have ended; the command is still winding up
        elif window is not None and time.monotonic() >= next_sample:
            window.sample()
            next_sample = time.monotonic() + SAMPLE_EVERY
        if figures is None:
            time.sleep(0.05)
    child.returncode = code = os.waitstatus_to_exitcode(status)
    if window is None:  # the command ended before its mark: nothing was measured
        print("proc_cpu: the command ended before its bots started", file=sys.stderr)
        return code or 1
    figures = figures or window.end(usage.ru_utime + usage.ru_stime)
    db.close()
    Path(args.out).write_text(json.dumps(figures | {"exit": code}) + "\n")
    return code


# --- the report --------------------------------------------------------------------------------


def _load(path: str | None) -> dict[str, Any]:
    return json.loads(Path(path).read_text()) if path and Path(path).exists() else {}


def row_of(cpu: dict[str, Any], before: dict[str, int], after: dict[str, int],
           bots: dict[str, Any]) -> dict[str, Any]:
    """One run's figures: the bots', the database's differences and the CPU per action."""
    delta = {k: after.get(k, 0) - before.get(k, 0) for k in after}
    actions = delta.get("actions_player", 0) + delta.get("actions_auto", 0)

    def per_action(value: float | None, scale: float = 1.0) -> float | None:
        return None if value is None or not actions else round(scale * value / actions, 2)

    kinds = cpu.get("kinds", {})
    listed = sum(v for v in kinds.values() if v is not None)
    busy = cpu.get("machine_busy")
    ms = {kind: per_action(kinds.get(kind), 1000) for kind in KINDS}
    ms["other"] = per_action(None if busy is None else busy - listed, 1000)
    ms["machine"] = per_action(busy, 1000)
    return {
        **bots, "db": delta, "actions": actions, "cpu": cpu, "ms_per_action": ms,
        "xacts_per_action": per_action(delta.get("xact_commit", 0) + delta.get("xact_rollback", 0)),
        "rows_written_per_action": per_action(sum(delta.get(k, 0) for k in ("tup_inserted", "tup_updated",
                                                                           "tup_deleted"))),
        "rows_read_per_action": per_action(delta.get("tup_fetched", 0)),
    }


def _num(value: float | None, digits: int = 1) -> str:
    return "-" if value is None or (isinstance(value, float) and math.isnan(value)) else f"{value:,.{digits}f}"


def report_text(row: dict[str, Any]) -> str:
    db, cpu, ms = row["db"], row["cpu"], row["ms_per_action"]
    hands = db.get("hands_ended", 0)
    per100 = f"{100 * db.get('sessions', 0) / hands:.1f}" if hands else "-"
    lines = [
        f"PostgreSQL connections opened: {db.get('sessions', 0)} ({per100} per 100 hands; {hands} hands ended)",
        f"actions {row['actions']:,} (player {db.get('actions_player', 0):,}, automatic "
        f"{db.get('actions_auto', 0):,}); per action: PostgreSQL transactions {_num(row['xacts_per_action'], 2)}, "
        f"rows written {_num(row['rows_written_per_action'], 2)}, rows fetched {_num(row['rows_read_per_action'], 2)}",
    ]
    if not cpu:
        return "\n".join([*lines, "CPU: not measured"])
    busy, capacity = cpu["machine_busy"], cpu["machine_all"]
    lines.append(f"CPU over {cpu['seconds']:.1f} s of play: the machine's {cpu['cpus']} CPUs busy "
                 f"{busy:.1f} of {capacity:.1f} CPU s ({100 * busy / capacity if capacity else 0:.0f} %)")
    lines.append(f"  {'kind':<10} {'CPU s':>8} {'of busy':>8} {'ms/action':>10}")
    backends = cpu.get("backends", {})
    notes = {
        "postgres": f"{backends.get('seen', 0)} backends of the run's database, {backends.get('ended', 0)} ended "
                    f"during the run ({backends.get('samples', 0)} samples)",
        "redis": "the whole redis-server (shared with any other client)",
        "bots": f"bot processes: {row.get('procs', '?')}",
        "other": f"everything else on the machine, this sampler's {cpu.get('sampler', 0):.1f} s included",
    }
    listed = 0.0
    for kind in (*KINDS, "other"):
        value = cpu["kinds"].get(kind) if kind != "other" else busy - listed
        if kind != "other" and value is not None:
            listed += value
        share = f"{100 * value / busy:.0f} %" if value is not None and busy else "-"
        line = f"  {kind:<10} {_num(value, 2):>8} {share:>8} {_num(ms[kind], 2):>10}  {notes.get(kind, '')}"
        lines.append(line.rstrip())
    if backends.get("samples"):
        n = backends["samples"]
        lines.append(f"PostgreSQL backends of the run's database at a sample, on average: {backends['active'] / n:.1f} "
                     f"running a statement, {backends['locked'] / n:.1f} of them waiting on a lock")
    return "\n".join(lines)


def lock_waits(cpu: dict[str, Any]) -> float | None:
    """The run database's backends waiting on a lock at a sample, on average."""
    backends = cpu.get("backends", {})
    return backends.get("locked", 0) / backends["samples"] if backends.get("samples") else None


SERIES_COLUMNS = ("tables", "hands", "hands/min", "p50 ms", "p99 ms", "full play p50 / p99 ms", "failures", *KINDS,
                  "other", "machine busy", "xacts/action", "lock waits")


def series_line(row: dict[str, Any]) -> str:
    ms = row.get("ms_per_action", {})
    ended = row.get("hands_completed", 0) + row.get("hands_voided", 0)
    cpu = row.get("cpu", {})
    busy = f"{100 * cpu['machine_busy'] / cpu['machine_all']:.0f} %" if cpu.get("machine_all") else "-"
    cells = [str(row.get("tables", "?")), f"{ended}/{row.get('hands_wanted', '?')}", _num(row.get("hands_per_min")),
             _num(row.get("p50_ms"), 0), _num(row.get("p99_ms"), 0),
             f"{_num(row.get('steady_p50_ms'), 0)} / {_num(row.get('steady_p99_ms'), 0)}",
             str(row.get("failures", "?")),
             *(_num(ms.get(kind), 1) for kind in (*KINDS, "other")), busy, _num(row.get("xacts_per_action"), 1),
             _num(lock_waits(cpu), 1)]
    return "| " + " | ".join(cells) + " |"


def series_text(rows: list[dict[str, Any]]) -> str:
    head = "| " + " | ".join(SERIES_COLUMNS) + " |"
    rule = "|" + "|".join("---" if c == "tables" else "---:" for c in SERIES_COLUMNS) + "|"
    return "\n".join([head, rule, *(series_line(row) for row in rows)])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="what", required=True)
    p = sub.add_parser("db")
    p.add_argument("--database-url", required=True)
    p.add_argument("--phase", choices=("before", "after"), required=True)
    p = sub.add_parser("run")
    p.add_argument("--out", required=True)
    p.add_argument("--database-url", required=True)
    p.add_argument("--pid", action="append", default=[], help="KIND=PID (repeat; several pids of a kind add up)")
    p.add_argument("--mark", default="", help="the window begins when the command creates this file")
    p.add_argument("command", nargs="+")
    p = sub.add_parser("report")
    for name in ("--cpu", "--before", "--after", "--bots", "--row"):
        p.add_argument(name, default="")
    p = sub.add_parser("series")
    p.add_argument("rows", nargs="*")
    args = parser.parse_args(argv)
    if args.what == "db":
        print(json.dumps(db_snapshot(args.database_url, args.phase)))
    elif args.what == "run":
        return run(args)
    elif args.what == "report":
        row = row_of(_load(args.cpu), _load(args.before), _load(args.after), _load(args.bots))
        print(report_text(row))
        if args.row:
            Path(args.row).write_text(json.dumps(row) + "\n")
    else:
        print(series_text([_load(path) for path in args.rows]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
