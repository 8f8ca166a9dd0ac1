"""The daily bonus on the pages (rewards.views, rewards_tags): a claim button on the wallet page
and in the lobby while the player may claim, else why not; the claim goes back where it came from."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User
from rewards.models import DAILY_BONUS_AMOUNT_DEFAULT
from wallet.models import TransactionKind
from wallet.money import format_coins
from wallet.selectors import wallet_balance

pytestmark = pytest.mark.django_db


@pytest.fixture
def broke(client: Client) -> User:
    user = User.objects.create_user(username="broke", password="x" * 12, language="en")
    client.force_login(user)
    return user


@pytest.mark.parametrize("page", ["wallet:wallet", "lobby"])
def test_the_claim_button_shows_while_eligible_and_the_reason_after(client: Client, broke: User, page: str) -> None:
    url = reverse(page)
    html = client.get(url).content.decode()
    assert 'data-testid="daily-bonus-claim"' in html and format_coins(DAILY_BONUS_AMOUNT_DEFAULT, grouping=True) in html
    response = client.post(reverse("rewards:daily-bonus"), {"next": url}, follow=True)
    assert response.redirect_chain[-1][0] == url
    html = response.content.decode()
    assert "Daily bonus claimed" in html
    assert 'data-testid="daily-bonus-claim"' not in html and 'data-testid="daily-bonus-why"' in html
    assert wallet_balance(user=broke) == DAILY_BONUS_AMOUNT_DEFAULT
    again = client.post(reverse("rewards:daily-bonus"), {"next": url}, follow=True).content.decode()
    assert "You have claimed today&#x27;s bonus" in again
    assert wallet_balance(user=broke) == DAILY_BONUS_AMOUNT_DEFAULT


def test_the_statement_names_the_bonus(client: Client, broke: User) -> None:
    client.post(reverse("rewards:daily-bonus"))
    statement = client.get(reverse("wallet:wallet"), {"kind": TransactionKind.DAILY_BONUS}).content.decode()
    assert 'data-testid="entry-label">Daily bonus' in statement


def test_a_claim_never_goes_back_to_another_site(client: Client, broke: User) -> None:
    response = client.post(reverse("rewards:daily-bonus"), {"next": "https://evil.example/"})
    assert response["Location"] == reverse("wallet:wallet")


def test_claiming_needs_a_log_in_and_a_post(client: Client) -> None:
    assert client.post(reverse("rewards:daily-bonus")).status_code == 302
    user = User.objects.create_user(username="getter", password="x" * 12)
    client.force_login(user)
    assert client.get(reverse("rewards:daily-bonus")).status_code == 405
    assert wallet_balance(user=user) == 0


def test_visitors_see_no_bonus_panel(client: Client) -> None:
    assert 'data-testid="daily-bonus"' not in client.get(reverse("lobby")).content.decode()
