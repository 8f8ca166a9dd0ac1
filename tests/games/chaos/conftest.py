"""Fixtures for crash recovery: a real HTTP + WebSocket server (uvicorn in a thread of the test
process, on the test database) that a test can stop and start again on the same port, and a
thread that runs the sweeper the way Celery beat does."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from django.test import override_settings


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def asgi_app() -> Any:
    """The WebSocket routes (and HTTP) as config.asgi serves them, without the embedded worker."""
    from channels.auth import AuthMiddlewareStack
    from channels.routing import ProtocolTypeRouter, URLRouter
    from django.core.asgi import get_asgi_application

    from config.routing import websocket_urlpatterns
    from config.websocket import SiteOriginValidator

    return ProtocolTypeRouter({
        "http": get_asgi_application(),
        "websocket": SiteOriginValidator(AuthMiddlewareStack(URLRouter(websocket_urlpatterns))),
    })


class Server:
    """uvicorn serving the project's routes; ``stop()`` drops every connection, ``start()``
    serves again on the same port."""

    def __init__(self) -> None:
        self.port = _free_port()
        self.url = f"ws://127.0.0.1:{self.port}"
        self._srv: Any = None
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        import uvicorn

        config = uvicorn.Config(asgi_app(), host="127.0.0.1", port=self.port, lifespan="off", log_level="warning",
                                ws_ping_interval=None)
        self._srv = uvicorn.Server(config)
        self._thread = threading.Thread(target=self._srv.run, daemon=True)
        self._thread.start()
        deadline = time.monotonic() + 15
        while not self._srv.started:
            if time.monotonic() > deadline:
                raise RuntimeError("the test server did not start")
            time.sleep(0.05)

    def stop(self) -> None:
        if self._srv is None or self._thread is None:
            return
        self._srv.should_exit = self._srv.force_exit = True
        self._thread.join(timeout=15)
        self._srv = self._thread = None


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
