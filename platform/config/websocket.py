"""WebSocket routes typed as Channels' ``URLRouter`` takes them.

Channels routes ``django.urls.path()`` patterns to ASGI applications (``Consumer.as_asgi()``);
django-stubs types ``path()`` for Django views only, so the routes are built here, in one place.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeAlias

from django.urls import path

if TYPE_CHECKING:
    from channels.consumer import _ASGIApplicationProtocol
    from channels.routing import URLRouter, _ExtendedURLPattern

    WebSocketRoute: TypeAlias = _ExtendedURLPattern | URLRouter  # what URLRouter takes


def websocket_path(route: str, application: _ASGIApplicationProtocol) -> _ExtendedURLPattern:
    """``path(route, application)``: the route of a WebSocket consumer."""
    return path(route, application)  # type: ignore[arg-type, return-value]  # the stubs' path() takes views only
