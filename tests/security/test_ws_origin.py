"""The WebSocket Origin check compares scheme, host and port (kernel.websocket.SiteOriginValidator)."""

from __future__ import annotations

from typing import Any

import pytest
from channels.generic.websocket import AsyncWebsocketConsumer
from channels.testing import WebsocketCommunicator

from kernel.websocket import SiteOriginValidator

pytestmark = pytest.mark.asyncio


class _Echo(AsyncWebsocketConsumer):
    async def connect(self) -> None:
        await self.accept()


async def _connects(origin: str | None, host: str | None = "cards.example.com", scheme: str = "ws",
                    **extra: bytes) -> bool:
    headers = [(b"origin", origin.encode())] if origin else []
    if host:
        headers.append((b"host", host.encode()))
    headers += [(name.replace("_", "-").encode(), value) for name, value in extra.items()]
    comm = WebsocketCommunicator(SiteOriginValidator(_Echo.as_asgi()), "/ws/x/", headers=headers)
    comm.scope["scheme"] = scheme
    connected, _ = await comm.connect()
    await comm.disconnect()
    return bool(connected)


@pytest.fixture(autouse=True)
def _site(settings: Any) -> None:
    settings.ALLOWED_HOSTS = ["cards.example.com", "127.0.0.1"]
    settings.WS_ALLOWED_ORIGINS = []
    settings.SECURE_PROXY_SSL_HEADER = None


async def test_the_sites_own_origin_is_accepted() -> None:
    assert await _connects("http://cards.example.com")
    assert await _connects("https://cards.example.com", scheme="wss")
    assert await _connects("http://127.0.0.1:8021", host="127.0.0.1:8021")


async def test_the_right_host_on_another_port_is_refused() -> None:
    assert not await _connects("http://127.0.0.1:8022", host="127.0.0.1:8021")
    assert not await _connects("http://cards.example.com:8000")


async def test_the_right_host_with_another_scheme_is_refused() -> None:
    assert not await _connects("http://cards.example.com", scheme="wss")  # an http page on an https site
    assert not await _connects("https://cards.example.com", scheme="ws")


async def test_a_foreign_or_missing_origin_is_refused() -> None:
    assert not await _connects("http://evil:8000")
    assert not await _connects("https://cards.example.com.evil.example", scheme="wss")
    assert not await _connects(None)
    assert not await _connects("null")


async def test_a_host_outside_allowed_hosts_is_refused_even_with_a_matching_origin() -> None:
    assert not await _connects("http://evil.example", host="evil.example")


async def test_behind_a_tls_proxy_the_forwarded_scheme_counts(settings: Any) -> None:
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    assert await _connects("https://cards.example.com", x_forwarded_proto=b"https")
    assert not await _connects("http://cards.example.com", x_forwarded_proto=b"https")


async def test_listed_origins_are_accepted_exactly(settings: Any) -> None:
    settings.WS_ALLOWED_ORIGINS = ["http://127.0.0.1:8021", "cards.example.com"]
    assert await _connects("http://127.0.0.1:8021", host="127.0.0.1:8022")
    assert not await _connects("https://127.0.0.1:8021", host="127.0.0.1:8022")
    assert not await _connects("http://cards.example.com:9999")  # a pattern without a scheme is ignored


@pytest.mark.django_db(transaction=True)
async def test_the_projects_asgi_application_checks_origins_this_way(settings: Any) -> None:
    from config.asgi import application

    settings.ALLOWED_HOSTS = ["localhost"]
    for origin, expected in [("http://localhost:8000", True), ("http://localhost:9000", False),
                             ("https://localhost:8000", False), ("http://evil:8000", False)]:
        comm = WebsocketCommunicator(application, "/ws/lobby/", headers=[(b"origin", origin.encode()),
                                                                         (b"host", b"localhost:8000")])
        connected, _ = await comm.connect()
        assert connected is expected, origin
        await comm.disconnect()


@pytest.mark.parametrize("origin", ["http://127.0.0.1:99999", "http://127.0.0.1:80a", "http://127.0.0.1:-1",
                                    "http://[::1", "http://127.0.0.1:8021:8021", "http://:", "\x7f\x00", "null"])
async def test_an_origin_with_an_unreadable_port_or_host_is_refused_cleanly(origin: str) -> None:
    assert not await _connects(origin, host="127.0.0.1:8021")


@pytest.mark.parametrize("host", ["127.0.0.1:99999", "127.0.0.1:port", "[::1"])
async def test_a_host_header_with_an_unreadable_port_refuses_the_socket_cleanly(host: str) -> None:
    assert not await _connects(f"http://{host}", host=host)
