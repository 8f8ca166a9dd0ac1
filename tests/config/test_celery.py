"""A countdown task really fires later: embedded (in-memory broker, in-process worker) and on Redis."""

from __future__ import annotations

import json
import os
import secrets
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from kernel.background import BACKGROUND_NICE

ROOT = Path(__file__).resolve().parents[2]
PROBE = Path(__file__).with_name("celery_probe.py")
REDIS_URL = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/14")


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL", "CELERY_BROKER_URL")}
    env["DJANGO_SETTINGS_MODULE"] = "config.settings.base"
    env.update(extra)
    return env


def _probe(env: dict[str, str], countdown: float = 2.0, queue: str = "") -> dict[str, object]:
    out = subprocess.run(
        [sys.executable, str(PROBE), str(countdown), secrets.token_hex(8), *([queue] if queue else [])],
        env=env, cwd=ROOT, capture_output=True, text=True, timeout=90, check=True,
    )
    result: dict[str, object] = json.loads(out.stdout.strip().splitlines()[-1])
    return result | {"stderr": out.stderr[-6000:]}  # a probe that timed out left its threads' stacks there


def test_the_sweeper_has_a_queue_of_its_own_and_timers_stay_on_the_default_one() -> None:
    from django.conf import settings

    from config.celery_app import app
    from games.timers import EXPIRE_PHASE, START_HAND

    def queue(task: str) -> str:
        return str(app.amqp.router.route({}, task)["queue"].name)

    assert queue("games.sweep") == settings.GAMES_SWEEP_QUEUE != app.conf.task_default_queue
    assert queue(EXPIRE_PHASE) == queue(START_HAND) == app.conf.task_default_queue
    # No player waits for the integrity signals: their batch has a queue of its own.
    assert queue("integrity.signals_update") == settings.BACKGROUND_QUEUE
    assert settings.BACKGROUND_QUEUE not in (settings.GAMES_SWEEP_QUEUE, app.conf.task_default_queue)


@pytest.mark.parametrize("queue", ["", "sweep", "background"])
def test_countdown_task_fires_after_its_delay_on_the_embedded_worker(queue: str, tmp_path: Path) -> None:
    """The one in-process worker serves the timers' queue, the sweeper's and the background one.
    Each probe has an SQLite file and a beat schedule of its own (``PROBE_DIR``): two probes at
    once (two test workers) would otherwise share them."""
    result = _probe(_env(DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}", PROBE_DIR=str(tmp_path)), queue=queue)
    assert result["elapsed"] is not None, result["stderr"]
    assert result["broker"] == "memory"
    assert result["early"] is False
    assert 2.0 <= float(result["elapsed"]) < 10  # type: ignore[arg-type]


def _redis_available() -> bool:
    import redis

    try:
        return bool(redis.Redis.from_url(REDIS_URL, socket_connect_timeout=1).ping())
    except redis.exceptions.ConnectionError:
        return False


@pytest.fixture(params=["", "sweep", "background"], ids=["timers", "sweeper", "background"])
def redis_worker(request: pytest.FixtureRequest) -> Iterator[dict[str, str]]:
    """A worker process serving one queue (the default one, the sweeper's or the background one,
    as README.md's production table runs them: each the leader of its own session, as a
    supervisor starts it); the probe's queue is in the env under ``PROBE_QUEUE`` and the worker's
    process id under ``WORKER_PID``."""
    if not _redis_available():
        pytest.skip(f"no Redis at {REDIS_URL}")
    env = _env(REDIS_URL=REDIS_URL, CHANNELS_PREFIX=f"test{secrets.token_hex(4)}", PROBE_QUEUE=request.param)
    worker = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "config", "worker", "-P", "solo", "--loglevel", "WARNING",
         *(["-Q", request.param] if request.param else [])],
        env=env, cwd=ROOT / "platform", stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        yield {**env, "WORKER_PID": str(worker.pid)}
    finally:
        worker.terminate()
        worker.wait(timeout=30)


@pytest.mark.redis
def test_countdown_task_fires_after_its_delay_through_redis_and_a_worker_process(redis_worker: dict[str, str]) -> None:
    result = _probe(redis_worker, queue=redis_worker["PROBE_QUEUE"])
    assert result["broker"] == "redis"
    assert result["early"] is False
    assert result["elapsed"] is not None, result["stderr"]
    assert 2.0 <= float(result["elapsed"]) < 30  # type: ignore[arg-type]
    # The task ran, so the worker is set up: the background one runs below live play's priority
    # (kernel/background.py), process and session, and the others as they were started.
    pid = int(redis_worker["WORKER_PID"])
    lowered = redis_worker["PROBE_QUEUE"] == "background"
    assert os.getpriority(os.PRIO_PROCESS, pid) == min(19, os.getpriority(os.PRIO_PROCESS, 0) + (BACKGROUND_NICE if lowered else 0))
    if os.path.exists(f"/proc/{pid}/autogroup"):
        with open(f"/proc/{pid}/autogroup") as f:
            group = f.read().split()  # empty where the session is in no autogroup (a cgroup's)
        assert group[-1:] in ([], [str(BACKGROUND_NICE if lowered else 0)])
