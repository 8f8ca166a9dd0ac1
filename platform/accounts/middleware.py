"""Signed-in users see the site in the language saved on their profile; every browser gets the
site's browser id (``accounts.browser``)."""

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.utils import translation

from accounts.browser import browser_cookie_set


class UserLanguageMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated and user.language:
            translation.activate(user.language)
            request.LANGUAGE_CODE = user.language
        return self.get_response(request)


class BrowserCookieMiddleware:
    """Every response to a browser without the site's browser id sets one (``accounts.browser``)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        browser_cookie_set(request, response)
        return response
