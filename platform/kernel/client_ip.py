"""The client's address: the one place login limiting, API throttles and logs take it from.

The connecting address (``REMOTE_ADDR``, or a WebSocket scope's ``client``) is the client unless
it is one of ``settings.TRUSTED_PROXIES`` (addresses or networks; env ``DJANGO_TRUSTED_PROXIES``,
empty by default). Only then does ``X-Forwarded-For`` count, read from the right: each trusted
proxy appends the address it was reached from, so the right-most entry that is not itself a
trusted proxy is the client. Whatever a client writes into the header itself lies further left
and is never reached. The ASGI server must not rewrite the address itself (uvicorn runs with
``--no-proxy-headers``), or this function would see the header's value as the connecting one.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable
from functools import lru_cache
from typing import Any

from django.conf import settings
from django.http import HttpRequest

Network = ipaddress.IPv4Network | ipaddress.IPv6Network
UNKNOWN = "0.0.0.0"  # noqa: S104 - a placeholder address, not a bind address


@lru_cache(maxsize=8)
def _networks(proxies: tuple[str, ...]) -> tuple[Network, ...]:
    return tuple(ipaddress.ip_network(p.strip(), strict=False) for p in proxies if p.strip())


def trusted_networks() -> tuple[Network, ...]:
    """``settings.TRUSTED_PROXIES`` as networks (a single address is a /32 or /128)."""
    return _networks(tuple(getattr(settings, "TRUSTED_PROXIES", ())))


def _address(value: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    value = value.strip()
    if value.startswith("[") and "]" in value:  # "[::1]:443"
        value = value[1 : value.index("]")]
    elif value.count(":") == 1:  # "203.0.113.7:5123"
        value = value.split(":", 1)[0]
    try:
        address = ipaddress.ip_address(value)
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped:
        return address.ipv4_mapped
    return address


def client_address(remote_addr: str | None, forwarded_for: str | None = None,
                   trusted: Iterable[Network] | None = None) -> str:
    """The client's address from the connecting address and the ``X-Forwarded-For`` header.

    1. The connecting address is the client unless it is a trusted proxy.
    2. Otherwise walk ``X-Forwarded-For`` from the right and return the first address that is
       not a trusted proxy. An entry that is not an address ends the walk: the last trusted
       hop is then the best answer (it is an address we know, not one a client wrote).
    """
    networks = tuple(trusted_networks() if trusted is None else trusted)
    hop = _address(remote_addr or "")
    if hop is None:
        return UNKNOWN
    if not any(hop in net for net in networks):
        return str(hop)
    for entry in reversed((forwarded_for or "").split(",")):
        address = _address(entry)
        if address is None:
            break
        hop = address
        if not any(hop in net for net in networks):
            break
    return str(hop)


def get_client_ip(request: HttpRequest, *args: Any) -> str:
    """The client address of an HTTP request (axes' ``AXES_CLIENT_IP_CALLABLE`` signature)."""
    return client_address(request.META.get("REMOTE_ADDR"), request.META.get("HTTP_X_FORWARDED_FOR"))


def scope_client_ip(scope: dict[str, Any]) -> str:
    """The client address of an ASGI scope (a WebSocket connection)."""
    client = scope.get("client") or (None, None)
    forwarded = b",".join(v for k, v in scope.get("headers", []) if k.lower() == b"x-forwarded-for")
    return client_address(client[0], forwarded.decode("latin-1") or None)
