"""Browser tests: Debian's Chromium driven by Playwright against a real HTTP + WebSocket server.

The server is uvicorn in a thread of the test process, serving the project's ASGI routes on
the test database, so the in-memory channel layer (or Redis, when REDIS_URL is set) is shared
with the services the tests call to deal and to time out hands. Service calls run in their
own thread: Playwright's sync API keeps an event loop in the test thread.

The pages run under the site's Content-Security-Policy: give ``wait_for_function`` a function
(``"() => …"``), since Playwright evaluates a bare expression with ``eval``, which it forbids.
"""

from __future__ import annotations

import itertools
import os
import socket
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from tests.factories import funded_user, table_at

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")  # ORM set-up from the Playwright thread

playwright_sync = pytest.importorskip("playwright.sync_api")

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "artifacts"
CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox", "--headless", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--no-first-run", "--disable-sync",
]
COINS = 2_000_000  # 20,000.00 coins per test player
_names = itertools.count(1)


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    if not Path(CHROMIUM).exists():
        pytest.skip(f"no Chromium at {CHROMIUM}: run scripts/ci_system_packages.sh as root")
    with playwright_sync.sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def asgi_app() -> Any:
    """HTTP (with static files from the finders) and the WebSocket routes, as config.asgi
    serves them, without starting the embedded Celery worker (tests drive the timers)."""
    from channels.routing import ProtocolTypeRouter
    from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler
    from django.core.asgi import get_asgi_application

    from config.routing import websocket_urlpatterns
    from kernel.websocket import websocket_application

    return ProtocolTypeRouter({
        "http": ASGIStaticFilesHandler(get_asgi_application()),
        "websocket": websocket_application(websocket_urlpatterns),
    })


@pytest.fixture
def server(transactional_db: Any) -> Iterator[str]:
    import uvicorn

    port = _free_port()
    config = uvicorn.Config(asgi_app(), host="127.0.0.1", port=port, lifespan="off", log_level="warning", ws_ping_interval=None)
    srv = uvicorn.Server(config)
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 15
    while not srv.started:
        if time.monotonic() > deadline:
            raise RuntimeError("the test server did not start")
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    srv.should_exit = True
    thread.join(timeout=10)


def call(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """Run a service in a worker thread (no event loop there) and close its connections."""
    def run() -> Any:
        from django.db import connections

        try:
            return fn(*args, **kwargs)
        finally:
            connections.close_all()

    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(run).result(timeout=60)


@pytest.fixture
def make_table(server: str) -> Callable[..., Any]:
    """A table at the cheapest stake level of a game (and mode), with optional rule overrides."""
    return table_at


class Player:
    """One signed-in player in their own browser context."""

    def __init__(self, user: Any, page: Any, base: str) -> None:
        self.user, self.page, self.base = user, page, base
        self.errors: list[str] = []
        self.csp_violations: list[str] = []  # what the Content-Security-Policy blocked
        page.on("pageerror", lambda exc: self.errors.append(str(exc)))
        page.on("console", lambda msg: self.csp_violations.append(msg.text)
                if "Content Security Policy" in msg.text or "Content-Security-Policy" in msg.text else None)

    def open(self, path: str) -> Player:
        self.page.goto(self.base + path)
        return self

    def shot(self, name: str) -> None:
        ARTIFACTS.mkdir(exist_ok=True)
        self.page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


@pytest.fixture
def player(browser: Any, server: str) -> Iterator[Callable[..., Player]]:
    """``player("阿丽", lang="zh-hans", width=1280)``: a funded user, signed in, on a blank page."""
    from django.test import Client


    contexts: list[Any] = []

    def make(name: str, *, lang: str = "zh-hans", width: int = 1280, height: int = 800, coins: int = COINS) -> Player:
        username = f"p{next(_names)}_{os.getpid()}"
        user = funded_user(username, coins, display_name=name, language=lang)
        client = Client()
        client.force_login(user)
        context = browser.new_context(viewport={"width": width, "height": height}, locale=lang)
        context.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": server}])
        contexts.append(context)
        return Player(user, context.new_page(), server)

    yield make
    for context in contexts:
        context.close()
