"""Frames through a real uvicorn started as README.md runs it (``--ws-max-size`` =
``kernel.websocket.WS_MAX_SIZE``): a frame over the protocol's 4 KiB but within the server's
limit, and a binary frame that is not UTF-8, each get one error frame and the socket carries
on (docs/PROTOCOL.md "Limits")."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
import uvicorn
from websockets.exceptions import ConnectionClosedError
from websockets.sync.client import ClientConnection, connect

from games.protocol import MAX_MESSAGE_BYTES
from kernel.websocket import WS_MAX_SIZE
from tests.browser.conftest import _free_port, asgi_app
from tests.factories import table_at

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def server(settings: Any) -> Iterator[str]:
    settings.ALLOWED_HOSTS = ["127.0.0.1"]
    # these sockets are signed out: their message rate (PROTOCOL.md "Limits") is not under test here
    settings.GAMES_WS_ANON_RATE = settings.GAMES_WS_ANON_BURST = 100
    port = _free_port()
    config = uvicorn.Config(asgi_app(), host="127.0.0.1", port=port, lifespan="off", log_level="warning",
                            ws_max_size=WS_MAX_SIZE, ws_ping_interval=None)
    srv = uvicorn.Server(config)
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 15
    while not srv.started:
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.02)  # polling the server's own started flag; no event to wait on
    yield f"127.0.0.1:{port}"
    srv.should_exit = True
    thread.join(timeout=10)


def _open(host: str, path: str) -> ClientConnection:
    return connect(f"ws://{host}{path}", origin=f"http://{host}", max_size=WS_MAX_SIZE, open_timeout=10)  # type: ignore[arg-type]


def _next(ws: ClientConnection, kind: str) -> dict[str, Any]:
    """The next frame of ``kind`` (state snapshots and table summaries may come first)."""
    while True:
        frame = json.loads(ws.recv(timeout=10))
        if frame["type"] == kind:
            return frame


def test_a_table_socket_answers_an_oversize_frame_with_too_large_and_stays_open(server: str) -> None:
    table = table_at("thirteen")
    with _open(server, f"/ws/tables/{table.pk}/") as ws:
        for size in (MAX_MESSAGE_BYTES + 1, 65_537, 200_000, WS_MAX_SIZE - 100):
            ws.send('{"type":"ping","pad":"' + "x" * size + '"}')
            assert _next(ws, "error")["code"] == "too_large", size
            ws.send('{"type":"ping"}')
            assert _next(ws, "pong")


def test_a_table_socket_answers_a_binary_frame_that_is_not_utf8_and_stays_open(server: str) -> None:
    table = table_at("thirteen")
    with _open(server, f"/ws/tables/{table.pk}/") as ws:
        for payload in (b"\xff\xfe\xfd", b'{"type":"ping"}', b"\xc3\x28" * 40_000):
            ws.send(payload)
            assert _next(ws, "error")["code"] == "bad_message"
            ws.send('{"type":"ping"}')
            assert _next(ws, "pong")


def test_the_lobby_socket_answers_an_oversize_or_binary_frame_and_stays_open(server: str) -> None:
    with _open(server, "/ws/lobby/") as ws:
        ws.send("x" * 100_000)
        assert _next(ws, "error")["code"] == "too_large"
        ws.send(b"\xff" * 10)
        assert _next(ws, "error")["code"] == "bad_message"
        ws.send("{}")
        assert _next(ws, "error")["code"] == "read_only"


def test_only_a_frame_past_the_servers_own_limit_closes_the_socket_with_1009(server: str) -> None:
    table = table_at("thirteen")
    with _open(server, f"/ws/tables/{table.pk}/") as ws:
        ws.send("x" * (WS_MAX_SIZE + 1))
        with pytest.raises(ConnectionClosedError) as closed:
            while True:
                ws.recv(timeout=10)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009


def test_a_text_frame_that_is_not_utf8_is_closed_by_the_websocket_layer_with_1007(server: str) -> None:
    """RFC 6455 section 8.1: the server's WebSocket layer fails such a connection before any
    consumer sees the frame (docs/PROTOCOL.md says so; a binary frame is the way to send bytes)."""
    table = table_at("thirteen")
    with _open(server, f"/ws/tables/{table.pk}/") as ws:
        ws.send(b"\xff\xfe", text=True)
        with pytest.raises(ConnectionClosedError) as closed:
            while True:
                ws.recv(timeout=10)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1007
