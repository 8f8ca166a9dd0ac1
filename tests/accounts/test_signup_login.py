import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User


@pytest.mark.django_db
def test_sign_up_creates_a_player_and_logs_them_in(client: Client) -> None:
    response = client.post(
        reverse("signup"),
        {"username": "mei", "display_name": "小美", "language": "zh-hant",
         "password1": "tiles-and-cards-77", "password2": "tiles-and-cards-77"},
    )
    assert response.status_code == 302
    user = User.objects.get(username="mei")
    assert user.display_name == "小美" and user.language == "zh-hant"
    assert not user.is_staff
    assert client.get(reverse("profile")).status_code == 200


@pytest.mark.django_db
def test_sign_up_refuses_mismatched_passwords(client: Client) -> None:
    response = client.post(
        reverse("signup"),
        {"username": "mei", "language": "en", "password1": "tiles-and-cards-77", "password2": "other-77-cards"},
    )
    assert response.status_code == 200
    assert not User.objects.filter(username="mei").exists()


@pytest.mark.django_db
def test_log_in_and_log_out(client: Client, make_user) -> None:
    make_user("lin", "lucky-dragon-88")
    response = client.post(reverse("login"), {"username": "lin", "password": "lucky-dragon-88"})
    assert response.status_code == 302
    assert client.get(reverse("api-me")).json()["username"] == "lin"
    client.post(reverse("logout"))
    assert client.get(reverse("api-me")).status_code == 403


@pytest.mark.django_db
def test_wrong_password_is_refused(client: Client, make_user) -> None:
    make_user("lin", "lucky-dragon-88")
    response = client.post(reverse("login"), {"username": "lin", "password": "nope"})
    assert response.status_code == 200
    assert client.get(reverse("api-me")).status_code == 403


@pytest.mark.django_db
def test_log_in_is_locked_after_repeated_failures_even_with_the_right_password(client: Client, make_user, settings) -> None:
    make_user("lin", "lucky-dragon-88")
    for _ in range(settings.AXES_FAILURE_LIMIT):
        client.post(reverse("login"), {"username": "lin", "password": "wrong"})
    response = client.post(reverse("login"), {"username": "lin", "password": "lucky-dragon-88"})
    assert response.status_code == 429
    assert "Too many" in response.content.decode() or "过多" in response.content.decode()
    assert client.get(reverse("api-me")).status_code == 403


@pytest.mark.django_db
def test_password_change(client: Client, make_user) -> None:
    user = make_user("lin", "lucky-dragon-88")
    client.force_login(user)
    response = client.post(
        reverse("password_change"),
        {"old_password": "lucky-dragon-88", "new_password1": "new-tiles-99-x", "new_password2": "new-tiles-99-x"},
    )
    assert response.status_code == 302
    user.refresh_from_db()
    assert user.check_password("new-tiles-99-x")


@pytest.mark.django_db
def test_profile_updates_display_name(client: Client, make_user) -> None:
    user = make_user("lin")
    client.force_login(user)
    client.post(reverse("profile"), {"display_name": "阿林", "language": "en"})
    user.refresh_from_db()
    assert user.display_name == "阿林"
