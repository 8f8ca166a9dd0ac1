"""At the default level the log shows what an operator needs (start-up, errors, settled hands,
faults), not the routine ticks: no line per sweep, per lobby publish, per Celery task, per health
probe or per WebSocket, and no "AXES: BEGIN" before every command."""

from __future__ import annotations

import logging
import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from games.services.hands import hand_start_if_ready
from games.services.seating import seat_join
from games.services.sweeper import hands_sweep
from kernel.logs import ROUTINE_LOGGERS, RoutineRequestFilter
from tests.factories import funded_user, hand_play_out, table_at

ROOT = Path(__file__).resolve().parents[2]


def _access(path: str, status: int) -> logging.LogRecord:
    """An access line as uvicorn writes it: client, method, path, HTTP version, status."""
    return logging.LogRecord("uvicorn.access", logging.INFO, __file__, 1, '%s - "%s %s HTTP/%s" %d',
                             ("127.0.0.1:5000", "GET", path, "1.1", status), None)


def test_routine_loggers_are_quiet_at_the_default_level() -> None:
    for name in ROUTINE_LOGGERS:
        assert not logging.getLogger(name).isEnabledFor(logging.INFO), name
        assert logging.getLogger(name).isEnabledFor(logging.WARNING), name
    assert logging.getLogger("games.services.settlement").isEnabledFor(logging.INFO)
    assert logging.getLogger("axes.handlers.database").isEnabledFor(logging.WARNING)  # failures, lock-outs
    assert not logging.getLogger("axes.handlers.database").isEnabledFor(logging.INFO)  # each successful log-in


def test_probes_scrapes_and_assets_leave_no_access_line_but_pages_and_failures_do() -> None:
    keep = RoutineRequestFilter().filter
    assert not keep(_access("/healthz", 200))
    assert not keep(_access("/metrics", 200))
    assert not keep(_access("/static/js/ct-core.abc123.js", 304))
    assert keep(_access("/healthz", 503))  # a failing probe is a fault
    assert keep(_access("/tables/3/", 200))
    accepted = logging.LogRecord("uvicorn.error", logging.INFO, __file__, 1, '%s - "WebSocket %s" [accepted]',
                                 ("127.0.0.1:5000", "/ws/tables/1/"), None)
    assert not keep(accepted)
    opened = logging.LogRecord("uvicorn.error", logging.INFO, __file__, 1, "connection open", (), None)
    assert not keep(opened)
    started = logging.LogRecord("uvicorn.error", logging.INFO, __file__, 1, "Started server process [%d]", (1,), None)
    assert keep(started)


@pytest.mark.django_db
def test_a_sweep_with_nothing_to_do_logs_nothing_and_a_settled_hand_logs_one_line(
    caplog: Any, django_capture_on_commit_callbacks: Any
) -> None:
    table = table_at("thirteen", name="logs")
    users = [funded_user(f"logger{i}", 1_000_000) for i in range(2)]
    for user in users:
        seat_join(table_id=table.pk, user=user, buy_in=table.stake_level.min_buy_in, request_id="join")
    hand = hand_start_if_ready(table_id=table.pk)
    assert hand is not None
    caplog.set_level(logging.INFO)
    with django_capture_on_commit_callbacks(execute=True):
        hands_sweep()
    assert [r.getMessage() for r in caplog.records] == []
    with django_capture_on_commit_callbacks(execute=True):
        hand_play_out(hand, users)
    lines = [r.getMessage() for r in caplog.records if r.levelno >= logging.INFO]
    assert lines == [f"hand {hand.pk} at table {table.pk} settled (thirteen)"]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.mark.django_db(transaction=True)
def test_the_server_prints_start_up_but_no_ticks_while_idle() -> None:
    """The embedded server (``make run``'s default), with the sweeper and the lobby feed ticking
    every half second and /healthz probed: after start-up it prints nothing."""
    port = _free_port()
    from django.db import connection

    db = connection.settings_dict
    url = (f"postgres://{db['USER']}@{db['HOST']}:{db['PORT'] or 5432}/{db['NAME']}"
           if db["ENGINE"].endswith("postgresql") else f"sqlite:///{db['NAME']}")
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "CELERY_BROKER_URL", "LOG_LEVEL")}
    env.update(DJANGO_SETTINGS_MODULE="config.settings.base", GAMES_SWEEP_EVERY="0.5", GAMES_LOBBY_EVERY="0.5",
               DATABASE_URL=url, PYTHONUNBUFFERED="1")
    server = subprocess.Popen(
        [sys.executable, "-m", "uvicorn", "config.asgi:application", "--app-dir", "platform", "--host", "127.0.0.1",
         "--port", str(port), "--lifespan", "off"],
        env=env, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2).read()
                break
            except OSError:
                time.sleep(0.3)
        # The idle time is what is under test: over these 4.5 s (nine sweeps and lobby publishes
        # at 0.5 s, five /healthz probes) the server prints nothing; no event marks its end.
        for _ in range(5):
            urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2).read()
            time.sleep(0.5)
        time.sleep(2)
    finally:
        server.terminate()
        out, _ = server.communicate(timeout=20)
    lines = [line for line in out.splitlines() if line.strip()]
    assert any("Uvicorn running" in line for line in lines), out
    assert any("embedded Celery worker started" in line for line in lines), out
    routine = [line for line in lines if any(
        word in line for word in ("Sending due task", "received", "succeeded in", "healthz", "sweep:", "AXES"))]
    assert routine == [], out
    assert len(lines) < 15, out
