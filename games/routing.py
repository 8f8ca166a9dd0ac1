"""WebSocket routes of the games app: a table, behind its gate for signed-out floods (games/gate.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from config.websocket import websocket_path
from games.consumers import TableConsumer
from games.gate import gate_guard

if TYPE_CHECKING:
    from config.websocket import WebSocketRoute

websocket_urlpatterns: list[WebSocketRoute] = [
    websocket_path("ws/tables/<int:table_id>/", gate_guard(TableConsumer.as_asgi())),
]
