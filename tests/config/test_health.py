import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import time_machine
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from config import health
from config.tasks import HEARTBEAT_KEY, record_heartbeat
from games.services.sweeper import SWEEP_REPORT_KEY

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def fresh_report() -> Iterator[None]:
    health.cached.forget()
    yield
    health.cached.forget()


def workers_heard(at: float | None = None) -> None:
    """Both workers heard at ``at`` (now by default): the timers worker's ping, the sweeper's last sweep."""
    record_heartbeat()
    stamp = time.time() if at is None else at
    cache.set(HEARTBEAT_KEY, {"token": "", "at": stamp}, timeout=None)
    cache.set(SWEEP_REPORT_KEY, {"at": stamp}, timeout=None)


@pytest.mark.django_db
def test_healthz_reports_every_component_ok(client: Client) -> None:
    workers_heard()
    response = client.get("/healthz")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "ok"
    assert body["database"] == "ok"
    assert body["channel_layer"] == "ok"
    assert body["broker"] == "ok"
    assert body["timers_worker"] == "ok"
    assert body["sweeper"] == "ok"
    assert "missing" not in body


@pytest.mark.django_db
def test_healthz_answers_503_and_names_the_failing_component(client: Client, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken() -> str:
        raise ConnectionError("broker unreachable")

    workers_heard()
    monkeypatch.setitem(health.CHECKS, "broker", broken)
    response = client.get("/healthz")
    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "error"
    assert body["broker"] == "error: ConnectionError: broker unreachable"
    assert body["database"] == "ok"
    assert body["missing"] == ["broker"]


@pytest.mark.django_db
def test_healthz_answers_503_naming_the_timers_worker_unheard_for_30_seconds(client: Client) -> None:
    with time_machine.travel(time.time(), tick=False) as traveller:
        workers_heard()
        traveller.shift(29)
        cache.set(SWEEP_REPORT_KEY, {"at": time.time()}, timeout=None)  # the sweeper goes on
        assert client.get("/healthz").status_code == 200
        traveller.shift(2)
        cache.set(SWEEP_REPORT_KEY, {"at": time.time()}, timeout=None)
        response = client.get("/healthz")
    assert response.status_code == 503
    body = response.json()
    assert body["missing"] == ["timers_worker"]
    assert body["timers_worker"] == "silent for 31 s"
    assert body["sweeper"] == "ok"


@pytest.mark.django_db
def test_healthz_answers_503_naming_the_sweeper_unheard_for_30_seconds(client: Client) -> None:
    with time_machine.travel(time.time(), tick=False) as traveller:
        workers_heard()
        traveller.shift(40)
        record_heartbeat()  # the timers worker goes on
        response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["missing"] == ["sweeper"]


@pytest.mark.django_db
def test_healthz_names_both_workers_when_neither_was_ever_heard(client: Client, monkeypatch: pytest.MonkeyPatch) -> None:
    cache.delete(HEARTBEAT_KEY)
    cache.delete(SWEEP_REPORT_KEY)
    monkeypatch.setattr(health, "STARTED", time.time() - 60)
    response = client.get("/healthz")
    assert response.status_code == 503
    body = response.json()
    assert body["missing"] == ["timers_worker", "sweeper"]
    assert body["timers_worker"].startswith("not heard since start")


@pytest.mark.django_db
def test_the_silence_setting_sets_when_a_worker_counts_as_missing(client: Client, settings: Any) -> None:
    settings.HEALTHZ_WORKER_SILENCE = 5
    workers_heard(at=time.time() - 6)
    assert client.get("/healthz").json()["missing"] == ["timers_worker", "sweeper"]


@pytest.mark.django_db
def test_a_flood_of_probes_runs_the_checks_once_and_touches_no_database(
    client: Client, settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings.HEALTHZ_CACHE_SECONDS = 60
    workers_heard()
    assert client.get("/healthz").status_code == 200
    cache_reads: list[str] = []
    monkeypatch.setattr(cache, "get", lambda *a, **k: cache_reads.append(a[0]))
    with CaptureQueriesContext(connection) as queries:
        statuses = {client.get("/healthz").status_code for _ in range(300)}
    assert statuses == {200}
    assert health.cached.runs == 1
    assert len(queries) == 0
    assert cache_reads == []


@pytest.mark.django_db
def test_the_checks_run_again_once_the_cached_report_is_older_than_the_setting(
    client: Client, settings: Any
) -> None:
    settings.HEALTHZ_CACHE_SECONDS = 2
    workers_heard()
    with time_machine.travel(time.time(), tick=False) as traveller:
        client.get("/healthz")
        client.get("/healthz")
        assert health.cached.runs == 1
        traveller.shift(3)
        client.get("/healthz")
    assert health.cached.runs == 2


def _asgi_get(app: Any, path: str) -> tuple[int, dict[str, str], bytes]:
    import asyncio

    scope = {"type": "http", "method": "GET", "path": path, "raw_path": path.encode(), "query_string": b"",
             "headers": [(b"host", b"127.0.0.1")], "asgi": {"version": "3.0"}, "http_version": "1.1"}
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    asyncio.run(app(scope, receive, send))
    headers = {k.decode(): v.decode() for k, v in sent[0]["headers"]}
    return sent[0]["status"], headers, sent[1]["body"]


@pytest.mark.django_db
def test_the_server_answers_healthz_before_django_with_the_views_body_and_status(
    client: Client, settings: Any
) -> None:
    import json

    settings.HEALTHZ_CACHE_SECONDS = 60
    workers_heard()
    view = client.get("/healthz")
    passed: list[str] = []

    async def django_app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        passed.append(scope["path"])
        await send({"type": "http.response.start", "status": 204, "headers": []})
        await send({"type": "http.response.body", "body": b""})

    app = health.healthz_first(django_app)
    status, headers, body = _asgi_get(app, "/healthz")
    assert (status, json.loads(body)) == (view.status_code, view.json()) and passed == []  # fresh: Django not reached
    assert headers["content-type"] == "application/json" and headers["cache-control"] == "no-store"
    assert _asgi_get(app, "/healthz/")[0] == 204 and _asgi_get(app, "/lobby/")[0] == 204
    assert passed == ["/healthz/", "/lobby/"]
    health.cached.forget()  # stale: the checks run again (in Django's sync thread), then answer
    status, _headers, body = _asgi_get(app, "/healthz")
    assert status == 200 and json.loads(body)["status"] == "ok" and health.cached.runs == 1


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _probe(port: int) -> tuple[int, dict[str, Any]]:
    import json

    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=5) as response:  # noqa: S310 - loopback
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


@pytest.mark.django_db(transaction=True)
def test_the_embedded_server_hears_its_own_worker_thread_and_answers_ok() -> None:
    """``make run``'s mode: the in-process worker thread pings and sweeps, so /healthz names
    nothing missing once both were heard."""
    port = _free_port()
    db = connection.settings_dict
    url = (f"postgres://{db['USER']}@{db['HOST']}:{db['PORT'] or 5432}/{db['NAME']}"
           if db["ENGINE"].endswith("postgresql") else f"sqlite:///{db['NAME']}")
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "CELERY_BROKER_URL")}
    env.update(DJANGO_SETTINGS_MODULE="config.settings.base", GAMES_SWEEP_EVERY="0.5", HEALTHZ_HEARTBEAT_EVERY="0.5",
               HEALTHZ_CACHE_SECONDS="0", DATABASE_URL=url, LOG_LEVEL="WARNING")
    server = subprocess.Popen(
        [sys.executable, "-m", "uvicorn", "config.asgi:application", "--app-dir", "platform", "--host", "127.0.0.1",
         "--port", str(port), "--lifespan", "off", "--log-level", "warning"],
        env=env, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    try:
        deadline, status, body = time.monotonic() + 60, 0, {}
        while time.monotonic() < deadline:
            try:
                status, body = _probe(port)
            except OSError:  # not listening yet
                status, body = 0, {}
            if body.get("worker_seen_seconds_ago") is not None and body.get("sweeper_seen_seconds_ago") is not None:
                break
            time.sleep(0.2)  # polling the server until it has heard both (bounded by the deadline)
    finally:
        server.terminate()
        server.wait(timeout=20)
    assert status == 200, body
    assert body["timers_worker"] == body["sweeper"] == "ok"
