"""DRF throttles that identify an anonymous client by ``kernel.client_ip`` (never by a header
the client wrote). Any throttle the APIs use derives from these; ``NUM_PROXIES = 0`` in the
settings keeps DRF's own classes on the connecting address too."""

from __future__ import annotations

from rest_framework.request import Request
from rest_framework.throttling import AnonRateThrottle, BaseThrottle, UserRateThrottle

from kernel.client_ip import get_client_ip


class ClientIpThrottleMixin(BaseThrottle):
    def get_ident(self, request: Request) -> str:
        return get_client_ip(request._request)


class ClientAnonRateThrottle(ClientIpThrottleMixin, AnonRateThrottle):
    pass


class ClientUserRateThrottle(ClientIpThrottleMixin, UserRateThrottle):
    pass
