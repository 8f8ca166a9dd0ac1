"""Display names are unique without regard to case, width or surrounding spaces, so no player can
pose as another at the tables."""

from __future__ import annotations

import importlib
import unicodedata

import pytest
from django.apps import apps
from django.db import IntegrityError, transaction
from django.test import Client
from django.urls import reverse
from hypothesis import given
from hypothesis import strategies as st

from accounts.forms import ProfileForm, SignUpForm
from accounts.models import User
from accounts.names import name_clean, name_key

names = st.text(st.characters(categories=["L", "N", "Zs"]), min_size=1, max_size=20)


def _fullwidth(value: str) -> str:
    return "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in value)


@given(names)
def test_a_name_and_its_fullwidth_spaced_or_recased_forms_share_one_key(name: str) -> None:
    key = name_key(name)
    assert name_key(f"  {name.upper()} ") == name_key(name.upper())
    assert name_key(_fullwidth(name)) == key
    assert name_key(f" {name}\u3000") == key


@given(names)
def test_cleaning_is_idempotent_and_leaves_no_outer_space(name: str) -> None:
    cleaned = name_clean(name)
    assert name_clean(cleaned) == cleaned
    assert cleaned == cleaned.strip()
    assert unicodedata.normalize("NFKC", cleaned) == cleaned


def test_the_examples_of_the_issue() -> None:
    assert name_key("Ａlice") == name_key("alice ") == name_key("ALICE") == "alice"


def _signup(username: str, display_name: str) -> SignUpForm:
    return SignUpForm(data={"username": username, "display_name": display_name, "language": "en",
                            "password1": "tiles-and-cards-77", "password2": "tiles-and-cards-77"})


@pytest.mark.django_db
@pytest.mark.parametrize("pose", ["alice", "ALICE", "Ａlice", " alice ", "Alice"])
def test_sign_up_refuses_a_name_another_player_has(make_user, pose: str) -> None:
    make_user("alice-1", display_name="Alice")
    form = _signup("mallory", pose)
    assert not form.is_valid()
    assert form.errors.as_data()["display_name"][0].code == "display_name_taken"


@pytest.mark.django_db
def test_sign_up_refuses_a_display_name_that_is_another_players_shown_username(make_user) -> None:
    make_user("lin")  # no display name: shown as "lin"
    assert not _signup("mallory", "LIN").is_valid()
    make_user("bob-1", display_name="Bob")
    form = _signup("BOB", "")  # shown by the username, which is another player's name
    assert not form.is_valid() and "username" in form.errors


@pytest.mark.django_db
def test_sign_up_stores_the_cleaned_name(client: Client) -> None:
    client.post(reverse("signup"), {"username": "mei", "display_name": "  Ｍｅｉ　Ｌｉｎ ", "language": "en",
                                    "password1": "tiles-and-cards-77", "password2": "tiles-and-cards-77"})
    assert User.objects.get(username="mei").display_name == "Mei Lin"


@pytest.mark.django_db
def test_profile_refuses_a_taken_name_with_a_message_and_keeps_ones_own(client: Client, make_user) -> None:
    make_user("alice-1", display_name="Alice")
    me = make_user("mei", display_name="Mei", language="en")
    client.force_login(me)
    response = client.post(reverse("profile"), {"display_name": "alice", "language": "en"})
    assert response.status_code == 200
    assert "This name is already used by another player." in response.content.decode()
    me.refresh_from_db()
    assert me.display_name == "Mei"
    assert ProfileForm(data={"display_name": "MEI", "language": "en"}, instance=me).is_valid()  # one's own, recased


@pytest.mark.django_db
def test_the_database_refuses_a_duplicate_whatever_writes_it(make_user) -> None:
    make_user("alice-1", display_name="Alice")
    with pytest.raises(IntegrityError), transaction.atomic():
        make_user("alice-2", display_name="ALICE")
    make_user("x1")
    make_user("x2")  # blank display names do not collide


@pytest.mark.django_db
def test_the_data_migration_makes_existing_duplicates_unique(make_user) -> None:
    migration = importlib.import_module("accounts.migrations.0003_display_names_unique")
    with transaction.atomic():
        # Written around create_user, as rows were before name keys: no key to collide on.
        users = [User.objects.create(username=f"u{i}", display_name=n)
                 for i, n in enumerate(["Alice", "alice ", "Ａlice", "Bob", "A" * 40, "a" * 40])]
        migration.unique_display_names(apps, None)
        shown = [User.objects.get(pk=u.pk).display_name for u in users]
        transaction.set_rollback(True)
    assert shown[0] == "Alice" and shown[3] == "Bob"
    assert len({name_key(n) for n in shown}) == len(shown)
    assert all(len(n) <= 40 for n in shown)
    assert shown[1] == "alice 2" and shown[2] == "Alice 3"  # each keeps its own spelling


@pytest.mark.django_db
@pytest.mark.parametrize("pose", ["阿丽\u200b", "阿丽\u0301", "\u202e阿丽", "阿\u200d丽"])
def test_sign_up_refuses_a_name_hiding_characters_or_marks(make_user, pose: str) -> None:
    make_user("ali", display_name="阿丽")
    form = _signup("mallory", pose)
    assert not form.is_valid()
    assert form.errors.as_data()["display_name"][0].code == "display_name_refused"


@pytest.mark.django_db
@pytest.mark.parametrize(("taken", "pose"), [("Émile", "éMILE"), ("Alice", "Аlice"), ("ВОВ", "bob"), ("Alice", "a1ice")])
def test_sign_up_refuses_a_name_reading_as_another_players_on_every_database(make_user, taken: str, pose: str) -> None:
    make_user("first", display_name=taken)
    form = _signup("mallory", pose)
    assert not form.is_valid() and "display_name" in form.errors
    with pytest.raises(IntegrityError), transaction.atomic():  # and the database, whatever writes it
        make_user("second", display_name=pose)


def test_the_name_key_migration_keys_every_display_name_and_renames_later_look_alikes(make_user) -> None:
    migration = importlib.import_module("accounts.migrations.0006_name_keys")
    users = [User.objects.create(username=u, display_name=d)
             for u, d in [("u1", "Émile"), ("u2", "éMILE"), ("bob", ""), ("u4", "ВОВ"), ("u5", "")]]
    migration.name_keys(apps, None)
    rows = [User.objects.get(pk=u.pk) for u in users]
    assert [(r.display_name, r.name_key) for r in rows] == [
        ("Émile", "émile"), ("éMILE 2", "émile 2"), ("", None), ("ВОВ", "bob"), ("", None)]


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_ten_concurrent_sign_ups_of_one_name_make_one_account_and_nine_clear_errors(settings) -> None:
    from tests.wallet.threads import run_concurrently

    settings.SIGNUP_PER_ADDRESS = settings.SIGNUP_PER_BROWSER = 100

    def sign_up(i: int) -> tuple[int, str]:
        response = Client(HTTP_ACCEPT_LANGUAGE="en").post(reverse("signup"), {
            "username": f"twin{i}", "display_name": "Twin" if i % 2 else "ＴＷＩＮ", "language": "en",
            "password1": "tiles-and-cards-77", "password2": "tiles-and-cards-77"}, REMOTE_ADDR=f"203.0.113.{i + 1}")
        return response.status_code, response.content.decode()

    results = run_concurrently(sign_up, 10)
    assert not [r for r in results if isinstance(r, BaseException)], results
    assert sorted(status for status, _page in results) == [200] * 9 + [302]
    assert all("This name is already used by another player." in page for status, page in results if status == 200)
    assert User.objects.filter(name_key="twin").count() == 1


@pytest.mark.django_db
def test_staff_setting_a_taken_name_in_admin_get_the_forms_error_not_a_server_error(client: Client, make_user) -> None:
    make_user("alice-1", display_name="Alice")
    other = make_user("mei", display_name="Mei")
    client.force_login(User.objects.create_superuser(username="boss", password="x" * 12, language="en"))
    url = reverse("admin:accounts_user_change", args=[other.pk])
    page = client.get(url)
    form = page.context["adminform"].form
    data = {k: v for k, v in form.initial.items() if v is not None and not isinstance(v, (list, tuple))}
    data.update(username="mei", display_name="АLICE", language="en", date_joined_0="2026-01-01",
                date_joined_1="00:00:00")
    response = client.post(url, data)
    assert response.status_code == 200
    assert "A name may not mix Latin, Cyrillic and Greek letters." in response.content.decode()
    data["display_name"] = "ALICE"
    assert "This name is already used by another player." in client.post(url, data).content.decode()
    data["display_name"] = "Mei Lin"
    assert client.post(url, data).status_code == 302
    assert User.objects.get(pk=other.pk).name_key == "mei lin"
