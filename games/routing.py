"""WebSocket routes of the games app: a table, behind its gate for signed-out floods (games/gate.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from games.consumers import TableConsumer
from games.gate import gate_guard
from kernel.websocket import websocket_path

if TYPE_CHECKING:
    from kernel.websocket import WebSocketRoute

websocket_urlpatterns: list[WebSocketRoute] = [
    websocket_path("ws/tables/<int:table_id>/", gate_guard(TableConsumer.as_asgi())),
]
