"""Logging in to a banned account (accounts/sign_in.py): with its correct password the player
learns the account is banned; with a wrong one, or for a name nobody has, the answer is the
usual one, so it tells nothing about an account to someone without its password."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from accounts.models import User

pytestmark = pytest.mark.django_db

WRONG = "Please enter a correct username and password"


def _log_in(client: Client, username: str, password: str, language: str = "en") -> str:
    client.cookies["django_language"] = language
    response = client.post(reverse("login"), {"username": username, "password": password})
    assert response.status_code == 200  # the form again: not logged in
    assert "_auth_user_id" not in client.session
    return response.content.decode()


def test_a_banned_player_with_the_right_password_is_told_the_account_is_banned(client: Client, make_user) -> None:
    make_user("lin", "lucky-dragon-88")
    User.objects.filter(username="lin").update(is_active=False)
    page = _log_in(client, "lin", "lucky-dragon-88")
    assert "This account is banned." in page and WRONG not in page


def test_a_banned_player_is_told_in_the_page_language(client: Client, make_user) -> None:
    make_user("mei", "lucky-dragon-88")
    User.objects.filter(username="mei").update(is_active=False)
    page = _log_in(client, "mei", "lucky-dragon-88", language="zh-hant")
    with translation.override("zh-hant"):
        assert translation.gettext("This account is banned.") in page


def test_a_wrong_password_for_a_banned_account_gets_the_usual_answer(client: Client, make_user) -> None:
    make_user("lin", "lucky-dragon-88")
    User.objects.filter(username="lin").update(is_active=False)
    page = _log_in(client, "lin", "not-the-password")
    assert WRONG in page and "banned" not in page


def test_a_name_nobody_has_gets_the_usual_answer(client: Client) -> None:
    page = _log_in(client, "nobody", "lucky-dragon-88")
    assert WRONG in page and "banned" not in page
