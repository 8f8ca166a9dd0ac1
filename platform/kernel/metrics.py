"""Prometheus metrics of live play, each defined once here, and what a scrape of ``/metrics``
reports (README.md "Metrics").

The code records through the small functions below (``hand_dealt``, ``action_applied``,
``timer_fired``…), never through the metric objects, so names, labels and buckets stay in one
place. Labels take values from bounded sets only (a game's code, a status, a short kind code),
never a table's or a user's id, so the number of series stays small.

One process (the embedded default, or a lone server) keeps the values in memory. Several
processes on one machine (the distributed mode's servers and Celery worker processes) share
them through prometheus_client's multiprocess mode: with ``PROMETHEUS_MULTIPROC_DIR`` in every
process's environment from its start, each process writes its values to files of its own in
that directory, and a scrape of any server adds up all of them. The directory must be emptied
when the fleet starts (``scripts/serve.sh`` and ``bench/harness/infra.py`` do), or the totals of
an earlier fleet would be counted again.

Gauges are summed over live processes only (``livesum``): a process that exits, or is killed,
stops counting once a scrape finds its process id gone (``_dead_reap``).
"""

from __future__ import annotations

import functools
import glob
import logging
import os
import threading
import time
from collections.abc import Callable
from typing import ParamSpec

from django.db import connections, transaction
from prometheus_client import REGISTRY, CollectorRegistry, Counter, Gauge, Histogram
from prometheus_client.multiprocess import MultiProcessCollector, mark_process_dead

log = logging.getLogger(__name__)

#: Where the processes of one machine share their values; empty: this process alone.
MULTIPROC_DIR = os.environ.get("PROMETHEUS_MULTIPROC_DIR", "")
if MULTIPROC_DIR:
    os.makedirs(MULTIPROC_DIR, exist_ok=True)

#: One action's service time: 1 ms (an idle table) to 2 s (a stall).
ACTION_BUCKETS = (0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0)
#: How late a timer ran: 10 ms (a healthy worker) to 60 s (a worker that was down).
LAG_BUCKETS = (0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0)
#: How often each process of a fleet writes its connection pool's figures.
POOL_SAMPLE_SECONDS = 5.0

HANDS_DEALT = Counter("ct_hands_dealt", "Hands dealt.", ["game"])
HANDS_ENDED = Counter("ct_hands_ended", "Hands finished: settled, or voided after an outage.", ["game", "status"])
ACTIONS = Counter(
    "ct_actions", "Actions applied: a player's (auto=false) or played for a seat whose time ran out (auto=true).",
    ["game", "auto"],
)
ACTION_SECONDS = Histogram(
    "ct_action_seconds", "Service time of one action call, from the table lock to the commit.",
    ["game", "auto"], buckets=ACTION_BUCKETS,
)
TIMER_LAG = Histogram(
    "ct_timer_lag_seconds", "How late a timer task ran: its start minus the time it was due (early runs count 0).",
    ["kind"], buckets=LAG_BUCKETS,
)
REPAIRS = Counter("ct_repairs", "Repairs by the sweeper of what the normal path left undone.", ["kind"])
SOCKETS = Gauge("ct_websockets_open", "WebSocket connections open.", ["socket"], multiprocess_mode="livesum")
POOL_CONNECTIONS = Gauge(
    "ct_db_pool_connections", "Connections the database pools hold, in use or idle.", ["alias"],
    multiprocess_mode="livesum",
)
POOL_AVAILABLE = Gauge(
    "ct_db_pool_available", "Idle connections in the database pools.", ["alias"], multiprocess_mode="livesum",
)
POOL_WAITING = Gauge(
    "ct_db_pool_waiting", "Requests waiting for a connection from a database pool.", ["alias"],
    multiprocess_mode="livesum",
)
POOL_MAX = Gauge(
    "ct_db_pool_max", "The largest the database pools may grow, added up.", ["alias"], multiprocess_mode="livesum",
)

P = ParamSpec("P")


def _quiet(func: Callable[P, None]) -> Callable[P, None]:
    """Recording a metric never fails the caller: play goes on without it."""

    @functools.wraps(func)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> None:
        try:
            _process_check()
            func(*args, **kwargs)
        except Exception:
            log.exception("could not record the metric %s", func.__name__)

    return wrapper


# --- what the code records ---------------------------------------------------------------------

@_quiet
def hand_dealt(game: str) -> None:
    HANDS_DEALT.labels(game).inc()


@_quiet
def hand_ended(game: str, status: str) -> None:
    """``status``: ``settled`` or ``voided``."""
    HANDS_ENDED.labels(game, str(status)).inc()


@_quiet
def action_applied(game: str, *, auto: bool, seconds: float, count: int = 1) -> None:
    """One action call that applied ``count`` actions (a deadline may auto-play several seats)
    in ``seconds``."""
    flag = "true" if auto else "false"
    ACTIONS.labels(game, flag).inc(count)
    ACTION_SECONDS.labels(game, flag).observe(seconds)


@_quiet
def timer_fired(kind: str, lag_seconds: float) -> None:
    """A timer task ran ``lag_seconds`` after it was due; ``kind``: ``expire`` or ``start``.
    One that ran early (clock skew) counts as on time: a histogram takes no negative values."""
    TIMER_LAG.labels(kind).observe(max(0.0, lag_seconds))


@_quiet
def repair(kind: str) -> None:
    """The sweeper repaired something; ``kind`` is a fixed short code (``lost_timer``,
    ``stuck_deal``, ``void``, ``missed_broadcast``), never built from data."""
    REPAIRS.labels(kind).inc()


@_quiet
def socket_opened(socket: str = "table") -> None:
    """A WebSocket was accepted; ``socket``: ``table`` or ``lobby``."""
    SOCKETS.labels(socket).inc()


@_quiet
def socket_closed(socket: str = "table") -> None:
    SOCKETS.labels(socket).dec()


class ActionClock:
    """Times one action call from its start (the service's entry, just before the table lock)
    to its transaction's commit, and records it only once that commit happened.

    Made at the service's entry, inside its transaction: the callback it registers then runs
    first after the commit, before the broadcasts the action registered later, so their time
    is not counted. A call that applied nothing (a duplicate, a stale timer) or was rolled
    back records nothing.
    """

    def __init__(self, *, auto: bool) -> None:
        self.auto = auto
        self.started = time.perf_counter()
        self.game: str | None = None
        self.count = 0
        transaction.on_commit(self._record, robust=True)

    def applied(self, game: str, count: int = 1) -> None:
        self.game, self.count = game, count

    def _record(self) -> None:
        if self.game is not None and self.count > 0:
            action_applied(self.game, auto=self.auto, seconds=time.perf_counter() - self.started, count=self.count)


# --- database pools ----------------------------------------------------------------------------

def pool_sample() -> None:
    """Write this process's connection pool figures (psycopg_pool's ``get_stats``) into the
    pool gauges. Databases without a pool (SQLite, or ``DATABASE_POOL`` off) report nothing;
    nor does a pool this process has not opened yet."""
    for alias in connections:
        pool = getattr(connections[alias], "pool", None)
        if pool is None or pool.closed:
            continue
        stats = pool.get_stats()
        POOL_CONNECTIONS.labels(alias).set(stats.get("pool_size", 0))
        POOL_AVAILABLE.labels(alias).set(stats.get("pool_available", 0))
        POOL_WAITING.labels(alias).set(stats.get("requests_waiting", 0))
        POOL_MAX.labels(alias).set(stats.get("pool_max", 0))


def _pool_sampler() -> None:
    """Each process of a fleet writes its own pool figures, so a scrape of any server sees the
    pools of all of them, a stalled one included (it could not be asked at scrape time)."""
    while True:
        time.sleep(POOL_SAMPLE_SECONDS)
        try:
            pool_sample()
        except Exception:
            log.exception("could not sample the database pool")


_process_lock = threading.Lock()
_process_pid = 0  # the process the checks below last ran in (a fork makes a new one)


def _process_check() -> None:
    """Once in each process of a fleet, before its first value is written: drop the gauge files
    a dead process with the same id may have left (they would be added to ours), and start
    the pool sampler. A forked process (a Celery worker process) runs this again."""
    global _process_pid
    if not MULTIPROC_DIR or _process_pid == os.getpid():
        return
    with _process_lock:
        if _process_pid == os.getpid():
            return
        _process_pid = os.getpid()
        mark_process_dead(_process_pid, MULTIPROC_DIR)
        threading.Thread(target=_pool_sampler, name="metrics-pool-sampler", daemon=True).start()


# --- scraping ----------------------------------------------------------------------------------

def _alive(pid: int) -> bool:
    """Whether the process runs; a killed one its parent has not yet waited for (a zombie)
    does not."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # it exists, under another user
        pass
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):  # no /proc: os.kill's answer stands
        return True


def _dead_reap(path: str) -> list[int]:
    """Stop counting the gauges of processes that are gone (exited or killed): the library's
    ``mark_process_dead``, for every process id in ``path`` that no longer runs on this machine."""
    dead: set[int] = set()
    for name in glob.glob(os.path.join(path, "gauge_live*_*.db")):
        tail = os.path.basename(name)[: -len(".db")].rsplit("_", 1)[-1]
        if tail.isdigit() and not _alive(int(tail)):
            dead.add(int(tail))
    for pid in sorted(dead):
        mark_process_dead(pid, path)
    return sorted(dead)


def scrape_registry(path: str | None = None) -> CollectorRegistry:
    """The registry a scrape reports: this process's own, or with a multiprocess directory
    (``path``, by default ``PROMETHEUS_MULTIPROC_DIR``) a fresh one adding up every process's
    files, after this process's pool figures are brought up to date and dead processes'
    gauges dropped."""
    path = MULTIPROC_DIR if path is None else path
    _process_check()
    pool_sample()
    if not path:
        return REGISTRY
    _dead_reap(path)
    registry = CollectorRegistry()
    MultiProcessCollector(registry, path=path)
    return registry
