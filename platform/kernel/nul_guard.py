"""Refuse a query string that carries a NUL character, before any view sees it.

PostgreSQL text cannot hold NUL, so a ``?q=%00`` reaching a query would fail in the database
(a 500) where SQLite answers; forms and serializers refuse NUL in their own fields, but
parameters read directly (the admin's search, filters, the lobby's ``game``) do not. One check
here answers every page and API alike: a 400 with a translated message, JSON under ``/api/``.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest, JsonResponse
from django.utils.translation import gettext as _

NUL = "\x00"


def _has_nul(request: HttpRequest) -> bool:
    return any(NUL in key or any(NUL in v for v in values) for key, values in request.GET.lists())


class NulRefusalMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if not _has_nul(request):
            return self.get_response(request)
        message = _("The address contains a NUL character, which no parameter may hold.")
        if request.path.startswith("/api/"):
            return JsonResponse({"detail": message}, status=400)
        return HttpResponseBadRequest(message, content_type="text/plain; charset=utf-8")
