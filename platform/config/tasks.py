"""Platform-wide Celery tasks."""

from __future__ import annotations

import time

from django.core.cache import cache

from config.celery_app import app

HEARTBEAT_KEY = "celery:heartbeat"


@app.task(name="config.record_heartbeat", ignore_result=True)
def record_heartbeat(token: str = "") -> None:
    """Record that a worker ran a task just now (read by /healthz, which names the timers worker
    missing when it has not run for HEALTHZ_WORKER_SILENCE seconds, and by the timer tests)."""
    cache.set(HEARTBEAT_KEY, {"token": token, "at": time.time()}, timeout=None)
