"""WebSocket routes of every app."""

from django.urls import URLPattern, URLResolver

from games.routing import websocket_urlpatterns as games_routes
from tables.routing import websocket_urlpatterns as tables_routes

websocket_urlpatterns: list[URLPattern | URLResolver] = [*games_routes, *tables_routes]
