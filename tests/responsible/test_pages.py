"""The player's limits page, the session reminder on the table page, and admin's read-only view."""

from __future__ import annotations

import itertools
from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from games.services.seating import seat_join
from responsible.models import LimitChange, PlayLimits
from responsible.services import limits_set
from tests.factories import funded_user, table_at

pytestmark = pytest.mark.django_db

_ids = itertools.count(1)


def _player() -> User:
    return funded_user(f"pager{next(_ids)}", 10_000_00, language="en")


def test_anonymous_visitors_are_sent_to_log_in(client: Client) -> None:
    response = client.get(reverse("responsible-limits"))
    assert response.status_code == 302 and reverse("login") in response["Location"]


def test_a_player_lowers_at_once_and_sees_a_raise_pending(client: Client) -> None:
    user = _player()
    client.force_login(user)
    url = reverse("responsible-limits")
    assert client.post(url, {"daily": "50", "weekly": "", "reminder_minutes": "30"}).status_code == 302
    row = PlayLimits.objects.get(user=user)
    assert (row.daily_loss_limit, row.reminder_minutes) == (50_00, 30)
    client.post(url, {"daily": "80.50", "weekly": "", "reminder_minutes": "30"})
    assert PlayLimits.objects.get(user=user).daily_loss_limit == 50_00
    page = client.get(url).content.decode()
    assert "80.50" in page and "changes to" in page


def test_a_self_exclusion_needs_the_confirmation_and_cannot_be_shortened(client: Client) -> None:
    user = _player()
    client.force_login(user)
    url = reverse("responsible-limits")
    client.post(url, {"exclude": "1", "period": "30d"})
    assert PlayLimits.objects.filter(user=user, excluded_until__isnull=False).count() == 0  # not confirmed
    client.post(url, {"exclude": "1", "period": "30d", "confirm": "on"})
    until = PlayLimits.objects.get(user=user).excluded_until
    assert until is not None and until > timezone.now() + timedelta(days=29)
    response = client.post(url, {"exclude": "1", "period": "1d", "confirm": "on"})
    assert "cannot be shortened" in response.content.decode()
    assert PlayLimits.objects.get(user=user).excluded_until == until


def test_the_table_page_shows_the_reminder_once_the_chosen_time_is_up(client: Client, time_machine: Any) -> None:
    time_machine.move_to(timezone.now(), tick=False)
    table = table_at("thirteen")
    user = _player()
    limits_set(user=user, daily=None, weekly=None, reminder_minutes=45)
    seat_join(table_id=table.pk, user=user, buy_in=table.stake_level.min_buy_in, request_id="j")
    client.force_login(user)
    url = reverse("table", args=[table.pk])
    time_machine.shift(timedelta(minutes=15))
    page = client.get(url).content.decode()
    assert 'data-due-in="1800"' in page and "hidden" in page.split('data-testid="session-reminder"')[1][:80]
    time_machine.shift(timedelta(minutes=31))
    page = client.get(url).content.decode()
    assert 'data-due-in="0"' in page and "45 minutes" in page


def test_no_reminder_without_one_chosen(client: Client) -> None:
    table = table_at("thirteen")
    client.force_login(_player())
    assert "session-reminder" not in client.get(reverse("table", args=[table.pk])).content.decode()


def test_staff_see_limits_and_history_in_admin_but_cannot_change_them(client: Client) -> None:
    user = _player()
    limits_set(user=user, daily=100_00, weekly=None, reminder_minutes=None)
    limits_set(user=user, daily=200_00, weekly=None, reminder_minutes=None)
    admin = User.objects.create_superuser(username=f"boss{next(_ids)}", password="x" * 12)
    client.force_login(admin)
    change = reverse("admin:responsible_playlimits_change", args=[user.pk])
    page = client.get(change)
    assert page.status_code == 200 and "200.00" in page.content.decode()  # the limit, in coins
    assert client.post(change, {"daily_loss_limit": 1}).status_code == 403
    history = client.get(reverse("admin:responsible_limitchange_changelist"))
    assert history.status_code == 200 and LimitChange.objects.filter(user=user).count() == 2
    client.force_login(user)
    assert client.get(change).status_code == 302
