"""One client address for login limiting, throttles and logs (kernel.client_ip)."""

import ipaddress

from django.test import RequestFactory
from hypothesis import given
from hypothesis import strategies as st
from rest_framework.request import Request

from kernel.client_ip import client_address, get_client_ip, scope_client_ip
from kernel.throttling import ClientAnonRateThrottle

PROXY = [ipaddress.ip_network("10.0.0.0/8")]
addresses = st.ip_addresses(v=4).map(str)


def test_without_trusted_proxies_the_header_is_ignored(settings) -> None:
    settings.TRUSTED_PROXIES = []
    request = RequestFactory().get("/", REMOTE_ADDR="198.51.100.4", HTTP_X_FORWARDED_FOR="1.2.3.4")
    assert get_client_ip(request) == "198.51.100.4"


def test_a_trusted_proxys_header_is_honoured(settings) -> None:
    settings.TRUSTED_PROXIES = ["10.0.0.0/8"]
    request = RequestFactory().get("/", REMOTE_ADDR="10.1.1.1", HTTP_X_FORWARDED_FOR="203.0.113.9")
    assert get_client_ip(request) == "203.0.113.9"


def test_the_right_most_untrusted_address_wins_over_what_the_client_wrote() -> None:
    # client wrote "6.6.6.6", the edge proxy appended the real peer, an inner proxy its own
    assert client_address("10.0.0.2", "6.6.6.6, 203.0.113.9, 10.0.0.1", PROXY) == "203.0.113.9"


def test_garbage_in_the_header_stops_at_the_last_trusted_hop() -> None:
    assert client_address("10.0.0.2", "203.0.113.9, not-an-ip", PROXY) == "10.0.0.2"


def test_an_untrusted_connecting_address_with_a_port_or_mapped_form_is_normalised() -> None:
    assert client_address("::ffff:198.51.100.4", "1.2.3.4", PROXY) == "198.51.100.4"


@given(addresses, st.lists(addresses, max_size=5))
def test_a_client_header_never_changes_the_address_of_a_direct_client(peer: str, forged: list[str]) -> None:
    if ipaddress.ip_address(peer) in PROXY[0]:
        return
    assert client_address(peer, ", ".join(forged), PROXY) == peer


@given(st.lists(addresses, max_size=5), addresses)
def test_behind_a_trusted_proxy_forged_entries_left_of_the_real_peer_never_count(forged: list[str], real: str) -> None:
    if ipaddress.ip_address(real) in PROXY[0]:
        return
    assert client_address("10.9.9.9", ", ".join([*forged, real]), PROXY) == real


def test_a_websocket_scope_uses_the_same_rule(settings) -> None:
    settings.TRUSTED_PROXIES = ["127.0.0.1"]
    scope = {"client": ("127.0.0.1", 5000), "headers": [(b"x-forwarded-for", b"6.6.6.6, 203.0.113.9")]}
    assert scope_client_ip(scope) == "203.0.113.9"
    settings.TRUSTED_PROXIES = []
    assert scope_client_ip(scope) == "127.0.0.1"


def test_api_throttles_identify_clients_by_the_same_address(settings) -> None:
    settings.TRUSTED_PROXIES = []
    request = Request(RequestFactory().get("/", REMOTE_ADDR="198.51.100.4", HTTP_X_FORWARDED_FOR="1.2.3.4"))
    assert ClientAnonRateThrottle().get_ident(request) == "198.51.100.4"
