"""WebSocket routes of every app."""

from __future__ import annotations

from typing import TYPE_CHECKING

from games.routing import websocket_urlpatterns as games_routes
from tables.routing import websocket_urlpatterns as tables_routes

if TYPE_CHECKING:
    from kernel.websocket import WebSocketRoute

websocket_urlpatterns: list[WebSocketRoute] = [*games_routes, *tables_routes]
