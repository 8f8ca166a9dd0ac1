"""WebSocket routes of the tables app: the lobby."""

from django.urls import path

from tables.consumers import LobbyConsumer

websocket_urlpatterns = [
    path("ws/lobby/", LobbyConsumer.as_asgi()),
]
