"""Sign-up limits per address and per browser, welcome coins per address and per browser, no
welcome coins for an account linked to a self-excluded or banned one (accounts.services.signup)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
import time_machine
from django.conf import settings as django_settings
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import Footprint, User
from accounts.selectors import accounts_linked
from operations.services import staff_ban
from responsible.services import exclusion_start
from wallet.audit import ledger_audit
from wallet.models import WELCOME_COINS_DEFAULT, Entry, LedgerTransaction
from wallet.selectors import wallet_balance

PASSWORD = "tiles-and-cards-77"


def _sign_up(client: Client, username: str, address: str = "203.0.113.7", **fields: str) -> Any:
    client.get(reverse("signup"), REMOTE_ADDR=address)  # the page sets the browser's cookie
    data = {"username": username, "display_name": "", "language": "en", "password1": PASSWORD,
            "password2": PASSWORD, **fields}
    response = client.post(reverse("signup"), data, REMOTE_ADDR=address)
    client.post(reverse("logout"), REMOTE_ADDR=address)  # as the page does: the browser keeps its cookies
    return response


def _issued() -> int:
    return sum(t.entries.filter(amount__gt=0).first().amount for t in LedgerTransaction.objects.filter(kind="grant"))


@pytest.mark.django_db
def test_thirty_sign_ups_from_one_address_make_five_accounts_and_two_welcome_grants() -> None:
    refused = []
    for i in range(30):
        response = _sign_up(Client(HTTP_ACCEPT_LANGUAGE="en"), f"farm{i}")
        assert response.status_code in (200, 302)
        if response.status_code == 200:
            refused.append(response.content.decode())
    assert User.objects.count() == django_settings.SIGNUP_PER_ADDRESS == 5
    assert len(refused) == 25 and all("Too many accounts were made from your network" in page for page in refused)
    assert _issued() == django_settings.WELCOME_PER_ADDRESS * WELCOME_COINS_DEFAULT == 600_000
    assert [f.welcome for f in Footprint.objects.order_by("pk")] == ["granted", "granted"] + ["address_limit"] * 3
    assert ledger_audit().ok


@pytest.mark.django_db
def test_the_address_limit_lets_sign_ups_in_again_once_its_window_is_over(settings: Any) -> None:
    settings.SIGNUP_PER_ADDRESS = 2
    for name in ("a1", "a2"):
        assert _sign_up(Client(), name).status_code == 302
    assert _sign_up(Client(), "a3").status_code == 200
    with time_machine.travel(timezone.now() + timedelta(hours=settings.SIGNUP_WINDOW_HOURS, minutes=1)):
        assert _sign_up(Client(), "a3").status_code == 302
    assert _sign_up(Client(), "a4", address="198.51.100.9").status_code == 302  # another address


@pytest.mark.django_db
def test_one_browser_makes_its_limit_of_accounts_from_any_address(settings: Any) -> None:
    settings.SIGNUP_PER_ADDRESS = 100
    browser = Client()
    assert _sign_up(browser, "b1", address="203.0.113.1").status_code == 302
    assert _sign_up(browser, "b2", address="203.0.113.2").status_code == 302
    page = _sign_up(browser, "b3", address="203.0.113.3")
    assert page.status_code == 200 and "Too many accounts were made in this browser" in page.content.decode()
    assert not User.objects.filter(username="b3").exists()
    # The first of them got the welcome coins; the second none, by the browser's welcome limit.
    assert [wallet_balance(user=User.objects.get(username=n)) for n in ("b1", "b2")] == [WELCOME_COINS_DEFAULT, 0]
    assert Footprint.objects.get(user__username="b2").welcome == Footprint.Welcome.BROWSER_LIMIT


@pytest.mark.django_db
def test_a_refused_sign_up_is_explained_in_the_pages_language(settings: Any) -> None:
    settings.SIGNUP_PER_ADDRESS = 0
    client = Client(HTTP_ACCEPT_LANGUAGE="zh-hans")
    page = _sign_up(client, "zh1", language="zh-hans")
    assert page.status_code == 200 and "您的网络注册的账户太多" in page.content.decode()
    assert not User.objects.exists()


@pytest.mark.django_db
def test_a_new_account_past_the_welcome_limit_is_made_and_told_it_gets_no_welcome_coins(settings: Any) -> None:
    settings.WELCOME_PER_ADDRESS = 0
    client = Client()
    client.get(reverse("signup"))
    response = client.post(reverse("signup"), {
        "username": "late", "display_name": "", "language": "en", "password1": PASSWORD, "password2": PASSWORD,
    }, follow=True)
    assert "It gets no welcome coins: they are given to a limited number" in response.content.decode()
    assert wallet_balance(user=User.objects.get(username="late")) == 0
    assert not Entry.objects.exists()


@pytest.mark.django_db
def test_a_self_excluded_players_new_account_in_the_same_browser_gets_no_welcome_coins() -> None:
    browser = Client()
    assert _sign_up(browser, "gambler", address="203.0.113.20").status_code == 302
    first = User.objects.get(username="gambler")
    exclusion_start(user=first, period="30d")
    response = browser.post(reverse("signup"), {
        "username": "gambler2", "display_name": "", "language": "en", "password1": PASSWORD, "password2": PASSWORD,
    }, REMOTE_ADDR="198.51.100.30", follow=True)
    second = User.objects.get(username="gambler2")
    assert wallet_balance(user=second) == 0
    assert "No welcome coins come with it" in response.content.decode()  # not why: it may be another's
    assert Footprint.objects.get(user=second).welcome == Footprint.Welcome.LINKED
    [link] = accounts_linked(user=second)
    assert link.user == first and link.same_browser and not link.same_address
    assert link.why(timezone.now()) == "same browser, self-excluded"


@pytest.mark.django_db
def test_a_banned_players_new_account_from_the_same_address_gets_no_welcome_coins(make_user: Any) -> None:
    assert _sign_up(Client(), "cheat", address="203.0.113.40").status_code == 302
    cheat = User.objects.get(username="cheat")
    staff = User.objects.create_superuser(username="boss", password=PASSWORD)
    staff_ban(actor=staff, user=cheat, reason="collusion", request_key="ban-cheat")
    assert _sign_up(Client(), "cheat2", address="203.0.113.40").status_code == 302
    again = User.objects.get(username="cheat2")
    assert wallet_balance(user=again) == 0
    assert Footprint.objects.get(user=again).welcome == Footprint.Welcome.LINKED
    assert [(link.user, link.same_address, link.banned) for link in accounts_linked(user=again)] == [(cheat, True, True)]


@pytest.mark.django_db
def test_staff_see_linked_accounts_and_why_in_the_user_admin() -> None:
    browser = Client()
    _sign_up(browser, "first", address="203.0.113.50")
    exclusion_start(user=User.objects.get(username="first"), period="7d")
    _sign_up(browser, "second", address="203.0.113.50")
    staff = User.objects.create_superuser(username="boss", password=PASSWORD, language="en")
    admin = Client()
    admin.force_login(staff)
    page = admin.get(reverse("admin:accounts_user_change", args=[User.objects.get(username="second").pk]))
    html = page.content.decode()
    assert page.status_code == 200
    assert "first" in html and "same browser, same address, self-excluded" in html
    assert "refused: linked to a self-excluded or banned account" in html
