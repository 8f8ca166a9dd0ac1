"""Fixtures for crash recovery: a real HTTP + WebSocket server (uvicorn in a thread of the test
process, on the test database) that a test can stop and start again on the same port, and a
thread that runs the sweeper the way Celery beat does."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import pytest
from django.test import override_settings

from tests.games.chaos.servers import Server


@pytest.fixture
def server(transactional_db: Any) -> Iterator[Server]:
    srv = Server()
    srv.start()
    yield srv
    srv.stop()


@pytest.fixture
def sweeper(transactional_db: Any) -> Iterator[list[BaseException]]:
    """The sweeper every 0.2 s in a thread (deals at idle tables, ends overdue phases), with
    the next hand dealt 0.3 s after a showdown; yields the exceptions it met."""
    from django.db import connections

    from games.services.sweeper import hands_sweep

    stop = threading.Event()
    failures: list[BaseException] = []

    def run() -> None:
        while not stop.is_set():
            try:
                hands_sweep()
            except Exception as exc:  # noqa: BLE001 - kept for the test to show
                failures.append(exc)
            finally:
                connections.close_all()
            stop.wait(0.2)

    with override_settings(GAMES_NEXT_HAND_DELAY=0.3):
        thread = threading.Thread(target=run, daemon=True)
        thread.start()
        yield failures
        stop.set()
        thread.join(timeout=15)
