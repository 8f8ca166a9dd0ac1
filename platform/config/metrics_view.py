"""``/metrics``: the Prometheus scrape endpoint (README.md "Metrics"), not public.

A scrape is answered for a client address in ``settings.METRICS_ALLOWED_IPS`` (addresses or
networks; loopback by default), as ``kernel.client_ip`` computes it, so a header a client wrote
is not believed; for a request with ``Authorization: Bearer <METRICS_TOKEN>`` when that setting
is set; and for a signed-in staff user. Anyone else gets 403. The address and the token are
checked first, so a scrape never loads a session.
"""

from __future__ import annotations

import hmac
import ipaddress
from functools import lru_cache
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseBase, HttpResponseForbidden
from prometheus_client.django import PrometheusDjangoView

from kernel import metrics
from kernel.client_ip import Network, get_client_ip


@lru_cache(maxsize=8)
def _networks(entries: tuple[str, ...]) -> tuple[Network, ...]:
    return tuple(ipaddress.ip_network(e.strip(), strict=False) for e in entries if e.strip())


def address_allowed(address: str) -> bool:
    """Whether a client address is one ``METRICS_ALLOWED_IPS`` lets scrape."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return any(ip in net for net in _networks(tuple(settings.METRICS_ALLOWED_IPS)))


def token_matches(request: HttpRequest) -> bool:
    """``Authorization: Bearer <METRICS_TOKEN>``, compared in constant time; never when no
    token is set."""
    token = settings.METRICS_TOKEN
    scheme, _, given = request.headers.get("Authorization", "").partition(" ")
    if not token or scheme.lower() != "bearer":
        return False
    return hmac.compare_digest(given.strip().encode(), token.encode())


def scrape_allowed(request: HttpRequest) -> bool:
    if token_matches(request) or address_allowed(get_client_ip(request)):
        return True
    user = getattr(request, "user", None)
    return bool(user is not None and user.is_authenticated and user.is_staff)


class MetricsView(PrometheusDjangoView):
    """prometheus_client's own Django view (text or OpenMetrics by the ``Accept`` header,
    gzip, ``name[]`` filters) over :func:`kernel.metrics.scrape_registry`."""

    http_method_names = ["get"]

    def dispatch(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        if not scrape_allowed(request):
            return HttpResponseForbidden()
        return super().dispatch(request, *args, **kwargs)

    def get(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        self.registry = metrics.scrape_registry()
        return super().get(request, *args, **kwargs)
