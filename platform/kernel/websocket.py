"""WebSocket routes typed as Channels' ``URLRouter`` takes them, the Origin check of every socket, and
the language a socket speaks.

Channels routes ``django.urls.path()`` patterns to ASGI applications (``Consumer.as_asgi()``);
django-stubs types ``path()`` for Django views only, so the routes are built here, in one place.
"""

from __future__ import annotations

from http.cookies import SimpleCookie
from importlib import import_module
from typing import TYPE_CHECKING, Any, TypeAlias, cast
from urllib.parse import ParseResult, urlparse

from channels.generic.websocket import AsyncWebsocketConsumer
from channels.routing import URLRouter
from channels.security.websocket import OriginValidator, WebsocketDenier
from django.conf import settings
from django.contrib import auth
from django.contrib.auth.models import AnonymousUser
from django.http import parse_cookie
from django.http.request import split_domain_port, validate_host
from django.urls import path
from django.utils import translation
from django.utils.translation.trans_real import parse_accept_lang_header

from kernel.db_threads import in_db_thread

if TYPE_CHECKING:
    from channels.consumer import _ASGIApplicationProtocol
    from channels.routing import URLRouter, _ExtendedURLPattern

    WebSocketRoute: TypeAlias = _ExtendedURLPattern | URLRouter  # what URLRouter takes


def websocket_path(route: str, application: _ASGIApplicationProtocol) -> _ExtendedURLPattern:
    """``path(route, application)``: the route of a WebSocket consumer."""
    return path(route, application)  # type: ignore[arg-type, return-value]  # the stubs' path() takes views only


#: The largest frame the ASGI server reads (uvicorn ``--ws-max-size``, README.md "Two ways to run"): far
#: above the protocol's 4 KiB (``games.protocol.MAX_MESSAGE_BYTES``), so an oversize frame
#: reaches the consumers and is answered with a ``too_large`` error frame on an open socket; a
#: frame past this one is closed by the server (1009) before the application sees it.
WS_MAX_SIZE = 1 << 20


class SiteOriginValidator(OriginValidator):
    """Accept a WebSocket only from the site's own pages: its ``Origin`` must equal, scheme, host
    and port, the origin the connection itself was made to, or be listed in
    ``settings.WS_ALLOWED_ORIGINS`` (full origins such as ``https://cards.example.com``).

    The connection's origin is ``http(s)://`` + its ``Host`` header; the host must be one of
    ``ALLOWED_HOSTS``; the scheme is ``https`` when the socket is ``wss`` or, as for Django's own
    pages, when ``SECURE_PROXY_SSL_HEADER`` says so. So ``http://evil:8000`` and ``http://host``
    for an ``https://host`` page are refused, and so is the right host on another port.
    """

    def __init__(self, application: Any) -> None:
        super().__init__(application, [])

    async def __call__(self, scope: Any, receive: Any, send: Any) -> Any:
        if scope["type"] != "websocket":
            raise ValueError("SiteOriginValidator guards WebSocket connections only")
        origin = _header(scope, b"origin")
        parsed = _origin_parsed(origin) if origin else None
        allowed = site_origins(scope)
        # A pattern without a scheme would compare host names only: every origin here has one.
        if parsed is not None and any("://" in p and self._matches(parsed, p) for p in allowed):
            return await cast(Any, self.application)(scope, receive, send)
        return await WebsocketDenier()(scope, receive, send)

    def _matches(self, parsed: ParseResult, pattern: str) -> bool:
        """Channels' comparison, where a pattern it cannot read (a ``Host`` header with a port
        past 65535 or not a number) matches nothing instead of raising."""
        try:
            return bool(self.match_allowed_origin(parsed, pattern))
        except ValueError:
            return False


def _origin_parsed(origin: str) -> ParseResult | None:
    """The ``Origin`` header's parts, or ``None`` when it is no origin at all: a port past 65535
    or not a number, an unclosed IPv6 bracket (``urlparse`` raises on those, lazily for the
    port)."""
    try:
        parsed = urlparse(origin)
        _ = parsed.port
    except ValueError:
        return None
    return parsed


class SocketAuthMiddleware:
    """The user who opens a WebSocket, found once as it opens: the session its cookie names
    (Django's session engine) and the user that session holds (``django.contrib.auth.get_user``,
    with its check of the session's hash), put in the scope as ``session`` and ``user``.

    Channels' ``AuthMiddlewareStack`` finds the same, lazily, and also wraps the socket's
    ``send`` to save the session whenever it changed, asking the lazy session on every message
    sent; a socket never changes its session, and a server sends each of its sockets several
    frames a second. Channels' ``get_user`` runs on the one thread a process shares for
    thread-sensitive calls, so sockets opening together (a room's players arriving, every client
    of a restarted server) would queue there one at a time; here the lookup runs in the
    database threads (``kernel.db_threads``), like the socket's other database work."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    async def __call__(self, scope: Any, receive: Any, send: Any) -> Any:
        cookie = _header(scope, b"cookie")
        cookies = parse_cookie(cookie) if cookie else {}
        store = import_module(settings.SESSION_ENGINE).SessionStore
        key = cookies.get(settings.SESSION_COOKIE_NAME)
        scope = dict(scope, cookies=cookies, session=store(key))
        # No session cookie, no session to read: a signed-out socket costs no database thread.
        scope["user"] = await in_db_thread(_user_of, scope["session"]) if key else AnonymousUser()
        return await self.inner(scope, receive, send)


class _SessionOnly:
    """What ``django.contrib.auth.get_user`` reads of a request: its session."""

    def __init__(self, session: Any) -> None:
        self.session = session


def _user_of(session: Any) -> Any:
    return auth.get_user(cast(Any, _SessionOnly(session)))


def websocket_application(routes: list[WebSocketRoute]) -> Any:
    """Every WebSocket as the servers take it: the Origin checked, the user found, then routed."""
    return SiteOriginValidator(SocketAuthMiddleware(URLRouter(routes)))


def _header(scope: Any, name: bytes) -> str | None:
    for key, value in scope.get("headers", []):
        if key.lower() == name:
            return bytes(value).decode("latin-1")
    return None


def _is_secure(scope: Any) -> bool:
    if scope.get("scheme") in ("wss", "https"):
        return True
    proxy_header = getattr(settings, "SECURE_PROXY_SSL_HEADER", None)
    if proxy_header:
        meta_name, expected = proxy_header
        name = meta_name.removeprefix("HTTP_").replace("_", "-").lower().encode()
        value = _header(scope, name)
        return value is not None and value.split(",", 1)[0].strip() == expected
    return False


def site_origins(scope: Any) -> list[str]:
    """The origins a WebSocket on this connection may come from (see ``SiteOriginValidator``)."""
    origins = list(getattr(settings, "WS_ALLOWED_ORIGINS", []))
    host = _header(scope, b"host")
    if host:
        domain, _port = split_domain_port(host)
        allowed = settings.ALLOWED_HOSTS or (["localhost", "127.0.0.1", "[::1]"] if settings.DEBUG else [])
        if domain and validate_host(domain, allowed):
            origins.append(f"{'https' if _is_secure(scope) else 'http'}://{host.lower()}")
    return origins


def scope_language(scope: Any) -> str:
    """The language a socket speaks to its user, chosen as Django's pages choose it: the signed-in
    user's saved language, else the language cookie, else ``Accept-Language``, else the default."""
    user = scope.get("user")
    candidates: list[str] = []
    if user is not None and getattr(user, "is_authenticated", False) and getattr(user, "language", ""):
        candidates.append(user.language)
    cookie_header = _header(scope, b"cookie")
    if cookie_header:
        cookie = SimpleCookie()
        try:
            cookie.load(cookie_header)
        except Exception:  # a malformed Cookie header is no language
            cookie = SimpleCookie()
        if settings.LANGUAGE_COOKIE_NAME in cookie:
            candidates.append(cookie[settings.LANGUAGE_COOKIE_NAME].value)
    accept = _header(scope, b"accept-language")
    if accept:
        candidates += [code for code, _q in parse_accept_lang_header(accept[:1000]) if code != "*"]
    for code in candidates:
        try:
            return translation.get_supported_language_variant(code)
        except LookupError:
            continue
    return str(settings.LANGUAGE_CODE)


class LocalizedWebsocketConsumer(AsyncWebsocketConsumer):
    """A WebSocket consumer that speaks its user's language (:func:`scope_language`): error frames
    and every message the services it calls put into words. The language is active for the whole
    connection; Django's translation state follows the connection's task into service threads."""

    async def __call__(self, scope: Any, receive: Any, send: Any) -> Any:
        with translation.override(scope_language(scope)):
            return await super().__call__(scope, receive, send)
