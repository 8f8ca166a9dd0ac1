"""A new player starts with the welcome coins staff set (posted once through the ledger; 0 gives
none), is told so, and keeps the language the sign-up page was in."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import Permission
from django.test import Client
from django.urls import reverse

from accounts.models import User
from operations.models import StaffAction
from tables.models import StakeLevel
from tests.factories import ensure_stake_levels
from wallet import services
from wallet.audit import ledger_audit
from wallet.models import WELCOME_COINS_DEFAULT, LedgerTransaction, TransactionKind, WelcomeGrant
from wallet.selectors import wallet_balance

pytestmark = pytest.mark.django_db
PASSWORD = "tiles-and-cards-77"


def _sign_up(client: Client, username: str, **fields: Any) -> Any:
    data = {"username": username, "password1": PASSWORD, "password2": PASSWORD, **fields}
    return client.post(reverse("signup"), data, follow=True)


def test_sign_up_grants_the_welcome_coins_once_through_the_ledger(client: Client) -> None:
    response = _sign_up(client, "mei", language="en")
    user = User.objects.get(username="mei")
    assert wallet_balance(user=user) == WELCOME_COINS_DEFAULT
    txn = LedgerTransaction.objects.get(idempotency_key=f"welcome:{user.pk}")
    assert (txn.kind, txn.reference, txn.actor_id) == (TransactionKind.GRANT, "welcome", None)
    assert "with 3,000.00 coins to play with" in response.content.decode()
    # the key is the player: posting it again (a retried sign-up) moves nothing more
    assert services.wallet_welcome(user=user) == txn
    assert wallet_balance(user=user) == WELCOME_COINS_DEFAULT
    assert ledger_audit().ok


def test_the_default_welcome_covers_the_lowest_stake_of_every_game() -> None:
    ensure_stake_levels()
    lowest = {game: min(StakeLevel.objects.filter(game=game).values_list("min_buy_in", flat=True))
              for game in StakeLevel.objects.values_list("game", flat=True).distinct()}
    assert len(lowest) == 3
    assert all(minimum <= WELCOME_COINS_DEFAULT for minimum in lowest.values()), lowest


def test_staff_set_the_welcome_amount_and_zero_switches_it_off(client: Client) -> None:
    row = WelcomeGrant.current()
    row.amount = 12_345
    row.save()
    _sign_up(client, "ana", language="en")
    assert wallet_balance(user=User.objects.get(username="ana")) == 12_345
    row.amount = 0
    row.save()
    client.logout()
    response = _sign_up(client, "bo", language="en")
    bo = User.objects.get(username="bo")
    assert wallet_balance(user=bo) == 0
    assert not LedgerTransaction.objects.filter(idempotency_key=f"welcome:{bo.pk}").exists()
    assert "Welcome! Your account is ready." in response.content.decode()


def test_the_welcome_amount_is_edited_in_admin_in_coins(client: Client, make_user) -> None:
    admin = make_user("boss", is_staff=True)
    admin.user_permissions.add(*Permission.objects.filter(codename__in=["view_welcomegrant", "change_welcomegrant"]))
    client.force_login(admin)
    changelist = client.get(reverse("admin:wallet_welcomegrant_changelist"))
    url = reverse("admin:wallet_welcomegrant_change", args=[1])
    assert changelist.status_code == 302 and changelist.url == url  # one row: the list opens it
    assert 'value="3000.00"' in client.get(url).content.decode()
    assert client.post(url, {"amount": "50.5"}).status_code == 200  # refused: no reason
    assert client.post(url, {"amount": "50.5", "staff_reason": "spring promotion"}).status_code == 302
    assert WelcomeGrant.current().amount == 5_050
    act = StaffAction.objects.get(kind="welcome")
    assert (act.actor, act.reason, act.before, act.after) == (admin, "spring promotion", {"amount": 300_000},
                                                             {"amount": 5_050})
    assert client.post(url, {"amount": "-1"}).status_code == 200  # refused
    assert WelcomeGrant.current().amount == 5_050
    assert client.get(reverse("admin:wallet_welcomegrant_add")).status_code == 403
    assert client.get(reverse("admin:wallet_welcomegrant_delete", args=[1])).status_code == 403


@pytest.mark.parametrize(("page_language", "greeting"), [
    ("en", "Welcome!"), ("zh-hans", "欢迎！"), ("zh-hant", "歡迎！"),
])
def test_sign_up_keeps_the_language_the_page_is_in(client: Client, page_language: str, greeting: str) -> None:
    client.cookies["django_language"] = page_language
    form = client.get(reverse("signup")).context["form"]
    assert form.initial["language"] == page_language
    response = _sign_up(client, f"new-{page_language}", language=form.initial["language"])
    assert User.objects.get(username=f"new-{page_language}").language == page_language
    page = response.content.decode()
    assert f'<html lang="{page_language}">' in page and greeting in page
    assert client.cookies["django_language"].value == page_language
