"""A browser, as the site knows it: a random id in a long-lived signed cookie that
``accounts.middleware.BrowserCookieMiddleware`` sets on the first response without one. Sign-up
limits and linked accounts count it (docs/SECURITY.md "Sign-ups"); a browser that drops it is a
new browser, which is why the limits per address stand beside the ones per browser."""

from __future__ import annotations

import secrets

from django.conf import settings
from django.http import HttpRequest, HttpResponse

SALT = "accounts.browser"


def browser_of(request: HttpRequest) -> str:
    """The browser id the request's signed cookie carries, or "" (none, or tampered with)."""
    value = request.get_signed_cookie(settings.BROWSER_COOKIE_NAME, default="", salt=SALT)
    return value if isinstance(value, str) and 0 < len(value) <= 64 else ""


def browser_cookie_set(request: HttpRequest, response: HttpResponse) -> None:
    """Give the browser an id if its request carried none (a valid one is never replaced)."""
    if browser_of(request):
        return
    response.set_signed_cookie(
        settings.BROWSER_COOKIE_NAME, secrets.token_urlsafe(24), salt=SALT,
        max_age=settings.BROWSER_COOKIE_DAYS * 24 * 3600, httponly=True, samesite="Lax",
        secure=settings.SESSION_COOKIE_SECURE,
    )
