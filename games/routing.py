"""WebSocket routes of the games app: a table."""

from __future__ import annotations

from typing import TYPE_CHECKING

from config.websocket import websocket_path
from games.consumers import TableConsumer

if TYPE_CHECKING:
    from config.websocket import WebSocketRoute

websocket_urlpatterns: list[WebSocketRoute] = [
    websocket_path("ws/tables/<int:table_id>/", TableConsumer.as_asgi()),
]
