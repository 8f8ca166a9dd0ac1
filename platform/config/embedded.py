"""The embedded Celery worker: a worker thread inside the server process.

Used when the broker is ``memory://`` (nothing configured): kombu's in-memory transport lives
in this process, so the worker must too. Countdown tasks sit in the worker's timer and fire
when due, exactly as on a separate worker process.
"""

from __future__ import annotations

import logging
import threading
from contextlib import AbstractContextManager
from typing import Any

from celery.beat import EmbeddedService
from celery.contrib.testing.worker import start_worker
from django.conf import settings

from config.celery_app import app

log = logging.getLogger(__name__)
_lock = threading.Lock()
_worker: AbstractContextManager[Any] | None = None
_beat: Any = None


def start_embedded_worker() -> None:
    """Start the in-process worker and beat once (idempotent); they live as long as the process."""
    global _worker, _beat
    with _lock:
        if _worker is not None:
            return
        # One thread serves the timers' queue, the sweeper's and the background one (separate
        # processes when distributed); the background work lowers its own thread
        # (kernel/background.py).
        _worker = start_worker(
            app,
            queues=[app.conf.task_default_queue, settings.GAMES_SWEEP_QUEUE, settings.BACKGROUND_QUEUE],
            pool="solo",
            concurrency=1,
            perform_ping_check=False,
            shutdown_timeout=5.0,
            loglevel="WARNING",
        )
        _worker.__enter__()
        _beat = EmbeddedService(app, thread=True, schedule_filename=str(_schedule_path()))
        _beat.start()
        log.info("embedded Celery worker started on %s", app.conf.broker_url)


def _schedule_path() -> Any:
    return settings.VAR_DIR / "celerybeat-schedule"
