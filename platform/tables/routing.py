"""WebSocket routes of the tables app: the lobby."""

from __future__ import annotations

from typing import TYPE_CHECKING

from kernel.websocket import websocket_path
from tables.consumers import LobbyConsumer

if TYPE_CHECKING:
    from kernel.websocket import WebSocketRoute

websocket_urlpatterns: list[WebSocketRoute] = [
    websocket_path("ws/lobby/", LobbyConsumer.as_asgi()),
]
