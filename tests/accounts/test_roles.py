import pytest
from django.contrib.auth.models import Group
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from accounts.models import User
from accounts.roles import is_auditor, roles_sync


@pytest.mark.django_db
def test_auditors_group_can_view_but_not_change_users(make_user) -> None:
    auditor = make_user("audrey", is_staff=True)
    auditor.groups.add(roles_sync())
    auditor = User.objects.get(pk=auditor.pk)  # fresh permission cache
    assert is_auditor(auditor)
    assert auditor.has_perm("accounts.view_user")
    assert not auditor.has_perm("accounts.change_user")
    assert not auditor.has_perm("accounts.delete_user")
    assert not auditor.has_perm("accounts.add_user")


@pytest.mark.django_db
def test_auditor_sees_admin_read_only(client: Client, make_user) -> None:
    auditor = make_user("audrey", is_staff=True)
    auditor.groups.add(roles_sync())
    player = make_user("lin")
    client.force_login(auditor)
    assert client.get(reverse("admin:accounts_user_changelist")).status_code == 200
    change_url = reverse("admin:accounts_user_change", args=[player.pk])
    page = client.get(change_url).content.decode()
    assert 'name="_save"' not in page  # view only
    response = client.post(change_url, {"username": "hacked"})
    assert response.status_code == 403
    assert client.get(reverse("admin:accounts_user_add")).status_code == 403


@pytest.mark.django_db
def test_player_is_not_an_auditor_and_cannot_open_admin(client: Client, make_user) -> None:
    player = make_user("lin")
    assert not is_auditor(player)
    client.force_login(player)
    assert client.get(reverse("admin:index")).status_code == 302  # to the admin login
    assert client.get(reverse("api-me")).json()["is_auditor"] is False


@pytest.mark.django_db
def test_seed_demo_is_idempotent() -> None:
    call_command("seed_demo")
    call_command("seed_demo")
    assert User.objects.filter(username="alice").count() == 1
    assert User.objects.get(username="admin").is_superuser
    assert is_auditor(User.objects.get(username="auditor"))
    assert Group.objects.filter(name="auditors").count() == 1
