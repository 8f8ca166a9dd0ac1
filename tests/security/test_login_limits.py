"""Log-in limiting: a forged X-Forwarded-For gains nothing; a username is limited across
addresses, and its owner gets in again after the cool-off."""

from datetime import timedelta

import pytest
import time_machine
from django.test import Client
from django.urls import reverse
from django.utils import timezone

PASSWORD = "lucky-dragon-88"


def _login(client: Client, password: str, **headers: str):
    return client.post(reverse("login"), {"username": "lin", "password": password}, **headers)


def _signed_in(client: Client) -> bool:
    return client.get(reverse("api-me")).status_code == 200


@pytest.fixture
def lin(make_user):
    return make_user("lin", PASSWORD)


@pytest.mark.django_db
def test_seven_wrong_passwords_each_with_another_forwarded_for_then_the_right_one_is_refused(client, lin, settings) -> None:
    settings.TRUSTED_PROXIES = []
    for i in range(7):  # public addresses: django-ipware, axes' default, would believe them
        _login(client, "wrong", HTTP_X_FORWARDED_FOR=f"81.2.69.{i}")
    response = _login(client, PASSWORD, HTTP_X_FORWARDED_FOR="81.2.69.99")
    assert response.status_code == 429
    assert not _signed_in(client)


@pytest.mark.django_db
def test_a_trusted_proxys_header_is_honoured_so_clients_behind_it_are_told_apart(client, lin, settings) -> None:
    settings.TRUSTED_PROXIES = ["127.0.0.1"]
    for _ in range(settings.AXES_FAILURE_LIMIT):
        _login(client, "wrong", HTTP_X_FORWARDED_FOR="203.0.113.5")
    assert _login(client, PASSWORD, HTTP_X_FORWARDED_FOR="203.0.113.5").status_code == 429
    # another client behind the same proxy is not locked by the first one's failures
    assert _login(client, PASSWORD, HTTP_X_FORWARDED_FOR="203.0.113.6").status_code == 302
    assert _signed_in(client)


@pytest.mark.django_db
def test_the_per_username_limit_holds_across_thirty_addresses_and_lifts_after_the_cool_off(client, lin, settings) -> None:
    settings.TRUSTED_PROXIES = ["127.0.0.1"]
    settings.LOGIN_USERNAME_FAILURE_LIMIT = 20
    refused = 0
    for i in range(30):  # one guess per address: the per-address limit never trips
        refused += _login(client, "wrong", HTTP_X_FORWARDED_FOR=f"198.51.100.{i}").status_code == 429
    assert refused == 30 - settings.LOGIN_USERNAME_FAILURE_LIMIT + 1  # the 20th failure locks
    response = _login(client, PASSWORD, HTTP_X_FORWARDED_FOR="203.0.113.200")  # the real user
    assert response.status_code == 429
    assert not _signed_in(client)
    cool_off = timedelta(minutes=settings.LOGIN_USERNAME_COOLOFF_MINUTES)
    with time_machine.travel(timezone.now() + cool_off + timedelta(seconds=1)):
        assert _login(client, PASSWORD, HTTP_X_FORWARDED_FOR="203.0.113.200").status_code == 302
        assert _signed_in(client)


@pytest.mark.django_db
def test_attempts_during_a_username_lock_do_not_extend_it(client, lin, settings) -> None:
    settings.TRUSTED_PROXIES = ["127.0.0.1"]
    settings.LOGIN_USERNAME_FAILURE_LIMIT = 3
    start = timezone.now()
    for i in range(3):
        _login(client, "wrong", HTTP_X_FORWARDED_FOR=f"198.51.100.{i}")
    with time_machine.travel(start + timedelta(minutes=settings.LOGIN_USERNAME_COOLOFF_MINUTES - 1)):
        for i in range(10):  # the attacker keeps going just before the lock ends
            assert _login(client, "wrong", HTTP_X_FORWARDED_FOR=f"198.51.101.{i}").status_code == 429
    with time_machine.travel(start + timedelta(minutes=settings.LOGIN_USERNAME_COOLOFF_MINUTES, seconds=5)):
        assert _login(client, PASSWORD, HTTP_X_FORWARDED_FOR="203.0.113.200").status_code == 302


@pytest.mark.django_db
def test_the_username_limit_ignores_case_and_width(client, lin, settings) -> None:
    settings.TRUSTED_PROXIES = ["127.0.0.1"]
    settings.LOGIN_USERNAME_FAILURE_LIMIT = 3
    for i, name in enumerate(["LIN", "Ｌｉｎ", "lin "]):
        client.post(reverse("login"), {"username": name, "password": "x"}, HTTP_X_FORWARDED_FOR=f"198.51.100.{i}")
    assert _login(client, PASSWORD, HTTP_X_FORWARDED_FOR="203.0.113.200").status_code == 429


@pytest.mark.django_db
def test_the_lockout_page_says_when_to_retry_in_the_users_language(client, lin, settings) -> None:
    for _ in range(settings.AXES_FAILURE_LIMIT):
        _login(client, "wrong", HTTP_ACCEPT_LANGUAGE="en")
    response = _login(client, PASSWORD, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 429
    minutes = round(settings.AXES_COOLOFF_TIME * 60)
    body = response.content.decode()
    assert f"Try again in {minutes} min." in body
    assert 'data-error-code="login_locked"' in body
    assert 0 < int(response["Retry-After"]) <= minutes * 60
    client.cookies["django_language"] = "zh-hans"
    response = _login(client, PASSWORD, HTTP_ACCEPT_LANGUAGE="zh-hans")
    assert "尝试次数过多" in response.content.decode()  # the page title, translated


@pytest.mark.django_db
def test_staff_can_lift_a_username_lock_in_the_admin(client, lin, make_user, settings) -> None:
    from accounts.models import LoginThrottle

    settings.TRUSTED_PROXIES = ["127.0.0.1"]
    settings.LOGIN_USERNAME_FAILURE_LIMIT = 3
    for i in range(3):
        _login(client, "wrong", HTTP_X_FORWARDED_FOR=f"198.51.100.{i}")
    staff = Client()
    staff.force_login(make_user("boss", is_staff=True, is_superuser=True))
    throttle = LoginThrottle.objects.get(username_key="lin")
    staff.post("/admin/accounts/loginthrottle/", {"action": "lift", "_selected_action": [throttle.pk]})
    assert _login(client, PASSWORD, HTTP_X_FORWARDED_FOR="203.0.113.200").status_code == 302
