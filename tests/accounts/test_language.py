import pytest
from django.test import Client
from django.urls import reverse

PAGES = ("home", "login", "signup")


@pytest.mark.django_db
@pytest.mark.parametrize("code,word", [("en", "Log in"), ("zh-hans", "登录"), ("zh-hant", "登入")])
def test_switcher_sets_the_language_of_every_page(client: Client, code: str, word: str) -> None:
    response = client.post(reverse("set_language"), {"language": code, "next": "/"})
    assert response.status_code == 302
    for page in PAGES:
        html = client.get(reverse(page)).content.decode()
        assert f'<html lang="{code}">' in html
        assert word in html
        assert 'name="language"' in html  # the switcher is on every page


@pytest.mark.django_db
def test_switching_language_saves_it_on_the_signed_in_profile(client: Client, make_user) -> None:
    user = make_user("lin", language="en")
    client.force_login(user)
    client.post(reverse("set_language"), {"language": "zh-hant", "next": "/"})
    user.refresh_from_db()
    assert user.language == "zh-hant"


@pytest.mark.django_db
def test_profile_language_wins_over_the_browser(client: Client, make_user) -> None:
    client.force_login(make_user("lin", language="zh-hans"))
    html = client.get(reverse("home"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert '<html lang="zh-hans">' in html


@pytest.mark.django_db
def test_unknown_language_is_ignored(client: Client) -> None:
    client.post(reverse("set_language"), {"language": "xx", "next": "/"})
    html = client.get(reverse("home"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert '<html lang="en">' in html
