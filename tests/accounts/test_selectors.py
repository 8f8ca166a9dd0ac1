"""Reads of the accounts app (platform/accounts/selectors.py): a username's log-in lock, the
accounts a sign-up footprint links, and whether an account may play, read fresh."""

from __future__ import annotations

from datetime import timedelta
from importlib import import_module
from typing import Any

import pytest
from django.contrib.auth import SESSION_KEY
from django.utils import timezone, translation

from accounts.models import Footprint, LoginThrottle, User
from accounts.selectors import (
    STANDING_BANNED,
    STANDING_OK,
    STANDING_STAFF,
    account_standing,
    account_standing_and,
    accounts_linked,
    footprints_linked,
    login_username_locked_until,
    session_alive,
)
from kernel.client_ip import UNKNOWN
from responsible.models import PlayLimits

pytestmark = pytest.mark.django_db


def _signed_up(name: str, *, address: str, browser: str, days_ago: float = 0) -> User:
    user = User.objects.create_user(username=name, password="x" * 12)
    Footprint.objects.create(user=user, address=address, browser=browser, welcome=Footprint.Welcome.GRANTED,
                             created_at=timezone.now() - timedelta(days=days_ago))
    return user


def test_a_username_is_locked_until_its_lock_ends_whatever_its_case_or_width() -> None:
    now = timezone.now()
    LoginThrottle.objects.create(username_key="alice", window_started=now, failures=5,
                                 locked_until=now + timedelta(minutes=15))
    assert login_username_locked_until(username="ALICE", now=now) == now + timedelta(minutes=15)
    assert login_username_locked_until(username="ａｌｉｃｅ", now=now) == now + timedelta(minutes=15)
    assert login_username_locked_until(username="alice", now=now + timedelta(minutes=16)) is None
    assert login_username_locked_until(username="bob", now=now) is None


def test_the_same_browser_links_for_ever_the_same_address_only_within_the_window(settings) -> None:
    settings.LINK_ADDRESS_DAYS = 30
    old_same_browser = _signed_up("old-browser", address="10.0.0.9", browser="b1", days_ago=400)
    old_same_address = _signed_up("old-address", address="10.0.0.1", browser="b2", days_ago=40)
    recent_same_address = _signed_up("recent-address", address="10.0.0.1", browser="b3", days_ago=2)
    _signed_up("stranger", address="10.0.0.7", browser="b4")

    linked = footprints_linked(address="10.0.0.1", browser="b1", at=timezone.now())

    assert [link.user for link in linked] == [old_same_browser, recent_same_address]  # oldest first
    assert [(link.same_browser, link.same_address) for link in linked] == [(True, False), (False, True)]
    assert old_same_address not in [link.user for link in linked]


def test_an_unknown_address_links_nobody_by_address_and_no_footprint_links_nobody() -> None:
    _signed_up("unknown-1", address=UNKNOWN, browser="b1")
    assert footprints_linked(address=UNKNOWN, browser="", at=timezone.now()) == []
    assert accounts_linked(user=User.objects.create_user(username="no-footprint", password="x" * 12)) == []


def test_a_linked_account_says_why_and_whether_it_is_banned_or_excluded() -> None:
    now = timezone.now()
    banned = _signed_up("banned", address="10.0.0.2", browser="shared")
    banned.is_active = False
    banned.save()
    excluded = _signed_up("excluded", address="10.0.0.3", browser="shared")
    PlayLimits.objects.create(user=excluded, excluded_until=now + timedelta(days=30))
    newcomer = _signed_up("newcomer", address="10.0.0.4", browser="shared")

    linked = {link.user.username: link for link in accounts_linked(user=newcomer)}

    assert set(linked) == {"banned", "excluded"}  # never the account itself
    assert linked["banned"].restricted(now) and linked["banned"].banned
    assert linked["excluded"].restricted(now) and not linked["excluded"].banned
    assert not linked["excluded"].restricted(now + timedelta(days=31))
    with translation.override("en"):
        assert linked["banned"].why(now) == "same browser, banned"
        assert linked["excluded"].why(now) == "same browser, self-excluded"


def test_an_accounts_standing_is_as_the_database_has_it_not_as_an_old_object_does() -> None:
    user = User.objects.create_user(username="carol", password="x" * 12)
    held = User.objects.get(pk=user.pk)  # what an open socket holds
    assert account_standing(user_id=held.pk) == STANDING_OK
    User.objects.filter(pk=user.pk).update(is_staff=True)
    assert account_standing(user_id=held.pk) == STANDING_STAFF
    User.objects.filter(pk=user.pk).update(is_active=False)
    assert held.is_active and account_standing(user_id=held.pk) == STANDING_BANNED
    assert account_standing(user_id=user.pk + 1000) == STANDING_BANNED


def _session(settings, user: User, *, seconds: int = 600) -> Any:
    store = import_module(settings.SESSION_ENGINE).SessionStore()
    store[SESSION_KEY] = str(user.pk)
    store.set_expiry(seconds)
    store.save()
    return store


@pytest.mark.parametrize("engine", ["django.contrib.sessions.backends.db", "django.contrib.sessions.backends.cache"])
def test_a_session_is_alive_until_it_logs_out_or_expires_whatever_the_engine_keeps_it_in(settings, engine) -> None:
    settings.SESSION_ENGINE = engine
    user = User.objects.create_user(username="dora", password="x" * 12)
    alive, flushed, expired = _session(settings, user), _session(settings, user), _session(settings, user, seconds=-1)
    keys = [alive.session_key, flushed.session_key, expired.session_key, "no-such-session", ""]
    flushed.flush()  # what a log-out does
    answers = account_standing_and(user_id=user.pk, also=[session_alive(k, user.pk) for k in keys])[1]
    assert answers == [True, False, False, False, False]
    assert session_alive(None, user.pk) is None


def test_the_standing_answers_each_question_asked_with_it_none_answering_yes() -> None:
    user = User.objects.create_user(username="erin", password="x" * 12)
    yes, no = ("1 = %s", [1]), ("1 = %s", [2])
    assert account_standing_and(user_id=user.pk, also=[no, None, yes]) == (STANDING_OK, [False, True, True])
    User.objects.filter(pk=user.pk).update(is_active=False)
    assert account_standing_and(user_id=user.pk, also=[yes]) == (STANDING_BANNED, [True])
    assert account_standing_and(user_id=user.pk + 1000, also=[yes, None]) == (STANDING_BANNED, [False, True])
