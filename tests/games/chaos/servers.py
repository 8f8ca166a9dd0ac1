"""A real HTTP + WebSocket server for tests that a test can stop and start again: uvicorn in a
thread of the test process, serving the project's routes on the test database."""

from __future__ import annotations

import socket
import threading
import time
from typing import Any


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def asgi_app() -> Any:
    """HTTP (static files from the finders) and the WebSocket routes as config.asgi serves them,
    without the embedded worker."""
    from channels.routing import ProtocolTypeRouter
    from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler
    from django.core.asgi import get_asgi_application

    from config.routing import websocket_urlpatterns
    from kernel.websocket import websocket_application

    return ProtocolTypeRouter({
        "http": ASGIStaticFilesHandler(get_asgi_application()),
        "websocket": websocket_application(websocket_urlpatterns),
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
