"""``/healthz``: database, channel layer and Celery broker status as JSON."""

from __future__ import annotations

import asyncio
import secrets
import time
from datetime import timedelta
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.core.cache import cache
from django.db import connection
from django.http import HttpRequest, JsonResponse
from django.utils import timezone

from config.celery_app import app as celery_app
from config.tasks import HEARTBEAT_KEY
from games.services.sweeper import sweep_last
from games.services.watchdog import repairs_since


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


def liveness() -> dict[str, Any]:
    """The watchdog's repairs in the last hour, by kind, and how long ago the sweeper ran
    (informational: repairs mean timers or broadcasts failed, and the watchdog made up for it)."""
    last = sweep_last()
    return {
        "repairs_last_hour": repairs_since(timezone.now() - timedelta(hours=1)),
        "sweeper_seen_seconds_ago": round(time.time() - last["at"], 1) if last else None,
    }


def worker_seen() -> float | None:
    """Seconds since a worker last ran the heartbeat task (informational: never fails the check)."""
    beat = cache.get(HEARTBEAT_KEY)
    return round(time.time() - beat["at"], 1) if beat else None


CHECKS = {"database": check_database, "channel_layer": check_channel_layer, "broker": check_broker}


def healthz(request: HttpRequest) -> JsonResponse:
    report: dict[str, str] = {}
    for name, check in CHECKS.items():
        try:
            report[name] = check()
        except Exception as exc:  # noqa: BLE001 - a health check reports every failure
            report[name] = f"error: {type(exc).__name__}: {exc}"
    healthy = all(value == "ok" for value in report.values())
    body: dict[str, Any] = {"status": "ok" if healthy else "error", **report, "worker_seen_seconds_ago": worker_seen()}
    try:
        body.update(liveness())
    except Exception as exc:  # noqa: BLE001 - informational, like the worker's heartbeat
        body["liveness"] = f"error: {type(exc).__name__}: {exc}"
    return JsonResponse(body, status=200 if healthy else 503)
