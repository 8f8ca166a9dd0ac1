"""``/healthz``: database, channel layer, Celery broker and workers, as JSON.

1. The checks run at most once per ``HEALTHZ_CACHE_SECONDS`` in a process: every probe in between
   is answered from the last result, with no database or Redis work, so a flood of probes
   costs the server next to nothing and cannot make the checks time out. One probe refreshes
   the result while the others keep answering with the previous one.
2. The workers are heard, not assumed: the timers worker runs ``config.record_heartbeat`` (beat
   sends it every ``HEALTHZ_HEARTBEAT_EVERY`` seconds on the timers' queue) and the sweeper
   leaves the time of its last sweep. Either unheard for ``HEALTHZ_WORKER_SILENCE`` seconds is
   missing: the answer is 503 and ``missing`` names it. A process that started less than that
   long ago measures the silence from its start.
"""

from __future__ import annotations

import asyncio
import json
import secrets
import threading
import time
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from asgiref.sync import async_to_sync, sync_to_async
from channels.layers import get_channel_layer
from django.conf import settings
from django.core.cache import cache
from django.core.serializers.json import DjangoJSONEncoder
from django.db import connection
from django.http import HttpRequest, JsonResponse
from django.utils import timezone

from config.celery_app import app as celery_app
from config.tasks import HEARTBEAT_KEY
from games.services.sweeper import sweep_last
from games.services.watchdog import repairs_since

STARTED = time.time()


def check_database() -> str:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()
    return "ok"


def check_channel_layer() -> str:
    layer = get_channel_layer()
    if layer is None:
        return "not configured"
    return async_to_sync(_round_trip)(layer)


async def _round_trip(layer: Any) -> str:
    """Send a message to a fresh channel and read it back, all on one event loop (a pub/sub
    layer subscribes per loop)."""
    channel = await layer.new_channel("health.")
    token = secrets.token_hex(8)
    await layer.send(channel, {"type": "health.ping", "token": token})
    message = await asyncio.wait_for(layer.receive(channel), timeout=3)
    return "ok" if message.get("token") == token else "wrong message"


def check_broker() -> str:
    with celery_app.connection_for_write() as conn:
        conn.ensure_connection(max_retries=1, timeout=2)
    return "ok"


def _heard(at: float | None) -> str:
    """"ok", or how long the worker has been silent (counted from this process's start when it
    was never heard)."""
    silent = time.time() - (at if at is not None else STARTED)
    if silent < settings.HEALTHZ_WORKER_SILENCE:
        return "ok"
    return f"silent for {round(silent)} s" if at is not None else f"not heard since start ({round(silent)} s)"


def check_timers_worker() -> str:
    beat = cache.get(HEARTBEAT_KEY)
    return _heard(beat["at"] if isinstance(beat, dict) else None)


def check_sweeper() -> str:
    last = sweep_last()
    return _heard(last["at"] if last else None)


def liveness() -> dict[str, Any]:
    """The watchdog's repairs in the last hour, by kind, and how long ago the workers were heard."""
    last, beat = sweep_last(), cache.get(HEARTBEAT_KEY)
    return {
        "repairs_last_hour": repairs_since(timezone.now() - timedelta(hours=1)),
        "sweeper_seen_seconds_ago": round(time.time() - last["at"], 1) if last else None,
        "worker_seen_seconds_ago": round(time.time() - beat["at"], 1) if isinstance(beat, dict) else None,
    }


CHECKS: dict[str, Callable[[], str]] = {
    "database": check_database, "channel_layer": check_channel_layer, "broker": check_broker,
    "timers_worker": check_timers_worker, "sweeper": check_sweeper,
}


def health_report() -> tuple[dict[str, Any], int]:
    """Every check run now: the body and the HTTP status."""
    report: dict[str, Any] = {}
    for name, check in CHECKS.items():
        try:
            report[name] = check()
        except Exception as exc:  # noqa: BLE001 - a health check reports every failure
            report[name] = f"error: {type(exc).__name__}: {exc}"
    missing = [name for name, value in report.items() if value != "ok"]
    body: dict[str, Any] = {"status": "error" if missing else "ok", **report}
    if missing:
        body["missing"] = missing
    try:
        body.update(liveness())
    except Exception as exc:  # noqa: BLE001 - informational
        body["liveness"] = f"error: {type(exc).__name__}: {exc}"
    return body, 503 if missing else 200


class _Cached:
    """The last report of this process and when it was made (module docstring, step 1)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.result: tuple[dict[str, Any], int] | None = None
        self.at = 0.0
        self.runs = 0  # how many times the checks ran (tests read it)

    def get(self) -> tuple[dict[str, Any], int]:
        if self.result is not None and self._fresh():
            return self.result
        # One probe refreshes; the others answer with the previous result meanwhile.
        if not self.lock.acquire(blocking=self.result is None):
            assert self.result is not None
            return self.result
        try:
            if self.result is None or not self._fresh():
                self.result = health_report()
                self.at = time.time()
                self.runs += 1
            return self.result
        finally:
            self.lock.release()

    def fresh(self) -> tuple[dict[str, Any], int] | None:
        """The last report while it is fresh, else None (no lock, no check: the event loop may ask)."""
        return self.result if self.result is not None and self._fresh() else None

    def _fresh(self) -> bool:
        return 0 <= time.time() - self.at < settings.HEALTHZ_CACHE_SECONDS

    def forget(self) -> None:
        with self.lock:
            self.result, self.at, self.runs = None, 0.0, 0


cached = _Cached()


def healthz(request: HttpRequest) -> JsonResponse:
    body, status = cached.get()
    return JsonResponse(body, status=status)


def healthz_first(http_app: Callable[..., Any]) -> Callable[..., Any]:
    """The ASGI HTTP application with ``GET /healthz`` answered before Django's stack.

    A fresh result is sent from the event loop (no middleware, no thread hop: about a tenth of
    the view's CPU), so a flood of probes costs the tables next to nothing (docs/OPERATIONS.md
    "Budgets", ``bench/noisy_neighbour.sh``); a stale one is refreshed in Django's sync thread,
    as the view would. Every other request goes to ``http_app``.
    """
    async def app(scope: dict[str, Any], receive: Callable[..., Any], send: Callable[..., Any]) -> None:
        if scope["type"] != "http" or scope["path"] != "/healthz" or scope["method"] not in ("GET", "HEAD"):
            await http_app(scope, receive, send)
            return
        fresh = cached.fresh()
        body, status = fresh if fresh is not None else await sync_to_async(cached.get)()
        payload = json.dumps(body, cls=DjangoJSONEncoder).encode()
        await send({"type": "http.response.start", "status": status, "headers": [
            (b"content-type", b"application/json"), (b"content-length", str(len(payload)).encode()),
            (b"cache-control", b"no-store"), (b"x-content-type-options", b"nosniff"),
        ]})
        await send({"type": "http.response.body", "body": b"" if scope["method"] == "HEAD" else payload})

    return app
