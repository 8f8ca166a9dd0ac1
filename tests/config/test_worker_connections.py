"""A prefork Celery worker keeps its pooled PostgreSQL connections from one task to the next,
and still replaces a connection the server has ended.

PostgreSQL's own counter (``pg_stat_database.sessions``, every session ever established in a
database) is read before a real ``celery worker --pool prefork`` runs tasks against the test
database and after it has stopped. Each child should open its pool once, not once a task.
"""

from __future__ import annotations

import os
import re
import secrets
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.db import connection

ROOT = Path(__file__).resolve().parents[2]
CONCURRENCY = 2
POOL_MIN = 2  # the default DATABASE_POOL_MIN
#: A child's pool opens POOL_MIN connections and, as its first task asks before they are up,
#: one more (psycopg's pool grows for a waiting request).
OPENED_PER_CHILD = POOL_MIN + 1
#: The worker's sessions name themselves, so a test can end them and none of its own.
WORKER_APP = "ct-test-worker"
TASK = "games.sweep"  # reads and writes the database: the sweeper's clock, hands, seats, ids


def _sessions(datname: str) -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_stat_clear_snapshot()")
        cursor.execute("SELECT sessions FROM pg_stat_database WHERE datname = %s", [datname])
        return int(cursor.fetchone()[0])


def _settled_sessions(datname: str) -> int:
    """The counter once the backends of the stopped worker have reported their sessions."""
    value, since = _sessions(datname), time.monotonic()
    deadline = since + 10
    while time.monotonic() < deadline:
        time.sleep(0.25)
        now = _sessions(datname)
        if now != value:
            value, since = now, time.monotonic()
        elif time.monotonic() - since >= 1.0:
            break
    return value


def _database_url() -> str:
    s = connection.settings_dict
    password = f":{s['PASSWORD']}" if s.get("PASSWORD") else ""
    return (f"postgres://{s['USER']}{password}@{s['HOST'] or '127.0.0.1'}:{s['PORT'] or 5432}/{s['NAME']}"
            f"?application_name={WORKER_APP}")


def _worker_env(redis_url: str) -> dict[str, str]:
    drop = ("CELERY_BROKER_URL", "DATABASE_POOL", "DATABASE_POOL_MAX")
    env = {k: v for k, v in os.environ.items() if k not in drop}
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings.base",
        LOG_LEVEL="DEBUG",  # the worker's "Task … succeeded" lines are routine: logged at DEBUG only
        DATABASE_URL=_database_url(),
        DATABASE_POOL_MIN=str(POOL_MIN),
        REDIS_URL=redis_url,
        CHANNELS_PREFIX=f"test{secrets.token_hex(4)}",
        CELERY_SKIP_CHECKS="1",
    )
    return env


class Worker:
    """A real prefork worker on a queue of its own (no other test's task reaches it)."""

    def __init__(self, redis_url: str, log: Path) -> None:
        from celery import Celery

        self.queue = f"connections-{secrets.token_hex(4)}"
        self.log = log
        self.sender = Celery("sender", broker=redis_url)
        with log.open("w") as out:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "celery", "-A", "config", "worker", "--pool", "prefork",
                 "--concurrency", str(CONCURRENCY), "--loglevel", "INFO", "--queues", self.queue,
                 "--without-heartbeat", "--without-mingle", "--without-gossip"],
                env=_worker_env(redis_url), cwd=ROOT / "platform", stdout=out, stderr=subprocess.STDOUT,
            )

    def succeeded(self) -> int:
        return len(re.findall(rf"Task {re.escape(TASK)}\[[^\]]+\] succeeded", self.log.read_text(errors="replace")))

    def run(self, count: int) -> int:
        """Send ``count`` tasks and wait until they have succeeded; return how many have in all."""
        target = self.succeeded() + count
        with self.sender.connection_for_write() as conn:
            for _ in range(count):
                self.sender.send_task(TASK, connection=conn, queue=self.queue)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and self.process.poll() is None and self.succeeded() < target:
            time.sleep(0.2)
        return self.succeeded()

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=30)

    def tail(self) -> str:
        return self.log.read_text(errors="replace")[-3000:]


@pytest.fixture
def worker(transactional_db: None, tmp_path: Path) -> Iterator[Worker]:
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL: set DATABASE_URL=postgres://...")
    redis_url = os.environ.get("REDIS_URL", "")
    if not redis_url:
        pytest.skip("needs Redis: set REDIS_URL=redis://...")
    started = Worker(redis_url, tmp_path / "worker.log")
    try:
        yield started
    finally:
        started.stop()


@pytest.mark.postgres
@pytest.mark.redis
def test_a_prefork_worker_opens_its_pools_once_not_once_a_task(worker: Worker) -> None:
    datname = connection.settings_dict["NAME"]
    before = _sessions(datname)
    ran = worker.run(100)
    worker.stop()
    opened = _settled_sessions(datname) - before
    print(f"PostgreSQL connections opened: {opened} for {ran} tasks on {CONCURRENCY} prefork children")
    assert ran == 100, worker.tail()
    assert opened <= CONCURRENCY * OPENED_PER_CHILD


@pytest.mark.postgres
@pytest.mark.redis
def test_a_pooled_connection_the_server_ended_is_replaced_not_used(worker: Worker) -> None:
    datname = connection.settings_dict["NAME"]
    assert worker.run(20) == 20, worker.tail()
    with connection.cursor() as cursor:  # what a PostgreSQL restart does to the pools' connections
        cursor.execute(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE datname = %s AND application_name = %s",
            [datname, WORKER_APP],
        )
        assert cursor.fetchone()[0] >= CONCURRENCY
    before = _sessions(datname)
    assert worker.run(20) == 40, worker.tail()
    assert "raised unexpected" not in worker.log.read_text(errors="replace"), worker.tail()
    worker.stop()
    assert 0 < _settled_sessions(datname) - before <= CONCURRENCY * OPENED_PER_CHILD
