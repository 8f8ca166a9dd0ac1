"""A Celery worker outlives a Redis restart (kernel/patches/broker.py): a real worker process, holding a
phase timer that waits for its ETA, loses its real redis-server; Redis comes back empty; the
worker reconnects and runs the next task. Before the fix kombu's restore of the held messages on
the lost connection raised AttributeError and the worker exited."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]

pytestmark = pytest.mark.skipif(shutil.which("redis-server") is None, reason="needs the redis-server program")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _redis(port: int) -> subprocess.Popen[bytes]:
    proc = subprocess.Popen(["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "",  # noqa: S607
                             "--appendonly", "no"], stdout=subprocess.DEVNULL)
    deadline = time.monotonic() + 10
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return proc
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.05)


def _wait_for(log: Path, text: str, timeout: float, times: int = 1) -> bool:
    """Whether ``text`` is in the log ``times`` times within ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if log.read_text(errors="replace").count(text) >= times:
            return True
        time.sleep(0.2)
    return False


def test_the_worker_survives_a_redis_restart_and_runs_the_next_task(tmp_path: Path) -> None:
    from celery import Celery

    port = _free_port()
    url = f"redis://127.0.0.1:{port}/0"
    env = {**os.environ, "REDIS_URL": url, "CELERY_BROKER_URL": url, "DJANGO_SETTINGS_MODULE": "config.settings.base",
           "LOG_LEVEL": "DEBUG"}  # the task lines the test waits for are routine: logged at DEBUG only
    log = tmp_path / "worker.log"
    redis = _redis(port)
    with log.open("wb") as out:
        worker = subprocess.Popen(
            [str(Path(sys.executable).parent / "celery"), "-A", "config", "worker", "--loglevel", "INFO",
             "--concurrency", "1", "--without-mingle", "--without-gossip"],
            cwd=ROOT / "platform", env=env, stdout=out, stderr=subprocess.STDOUT)
    client = Celery(broker=url)
    client.conf.broker_transport = "kernel.patches.broker:Transport"
    try:
        assert _wait_for(log, "ready.", 60), log.read_text()
        client.send_task("games.expire_phase", args=[0, 0], countdown=600)  # a timer held until its ETA
        assert _wait_for(log, "Task games.expire_phase", 20), log.read_text()
        connected = log.read_text(errors="replace").count("] Connected to ")
        redis.kill()
        redis.wait()
        assert _wait_for(log, "Connection to broker lost", 20), log.read_text()[-3000:]  # the worker saw it go
        redis = _redis(port)  # back, with nothing in it
        assert _wait_for(log, "] Connected to ", 30, times=connected + 1), log.read_text()[-3000:]
        assert worker.poll() is None, log.read_text()[-3000:]
        client.send_task("games.start_hand", args=[0, 0])
        assert _wait_for(log, "Task games.start_hand", 30), log.read_text()[-3000:]
        assert worker.poll() is None
    finally:
        worker.kill()
        worker.wait()
        redis.kill()
        redis.wait()
