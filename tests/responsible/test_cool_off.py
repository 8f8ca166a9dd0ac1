"""A cool-off, a short break from play (docs/RESPONSIBLE_PLAY.md): no buy-in or top-up until it
is over, lengthened but never shortened, recorded; the page takes it and stops play at once."""

from __future__ import annotations

import itertools
from datetime import timedelta

import pytest
import time_machine
from django.test import Client
from django.urls import reverse
from django.utils import timezone, translation

from games.services.seating import seat_join, seat_top_up
from responsible.errors import LimitRefused, SettingRefused
from responsible.models import LimitChange, Setting
from responsible.selectors import play_barred
from responsible.services import cool_off_start, exclusion_start
from tables.models import Seat
from tests.factories import funded_user, table_at
from wallet.selectors import wallet_balance

pytestmark = pytest.mark.django_db

_ids = itertools.count(1)


@pytest.fixture(autouse=True)
def _english():
    with translation.override("en"):
        yield


def test_a_player_cooling_off_cannot_sit_down_until_the_break_is_over() -> None:
    user, table = funded_user(f"calm{next(_ids)}", 10_000_00), table_at("thirteen")
    cool_off_start(user=user, period="1h")
    with pytest.raises(LimitRefused) as refused:
        seat_join(table_id=table.pk, user=user, buy_in=table.stake_level.min_buy_in, request_id="a")
    assert refused.value.code == "cooling_off" and "break" in str(refused.value)
    assert wallet_balance(user=user) == 10_000_00
    with time_machine.travel(timezone.now() + timedelta(hours=1, seconds=1)):
        seat_join(table_id=table.pk, user=user, buy_in=table.stake_level.min_buy_in, request_id="b")


def test_a_player_cooling_off_cannot_top_up() -> None:
    user, table = funded_user(f"calm{next(_ids)}", 10_000_00), table_at("thirteen")
    seat_join(table_id=table.pk, user=user, buy_in=table.stake_level.min_buy_in, request_id="a")
    cool_off_start(user=user, period="6h")
    with pytest.raises(LimitRefused) as refused:
        seat_top_up(table_id=table.pk, user=user, amount=100, request_id="b")
    assert refused.value.code == "cooling_off"


def test_a_cool_off_is_lengthened_but_never_shortened_and_every_one_is_recorded() -> None:
    user = funded_user(f"calm{next(_ids)}", 1)
    first = cool_off_start(user=user, period="6h")
    with pytest.raises(SettingRefused):
        cool_off_start(user=user, period="1h")
    assert cool_off_start(user=user, period="24h") > first
    assert LimitChange.objects.filter(user=user, setting=Setting.COOL_OFF).count() == 2
    with pytest.raises(SettingRefused):
        cool_off_start(user=user, period="5m")


def test_play_barred_names_each_reason_and_forgets_a_break_that_is_over() -> None:
    banned, excluded, cooling, free = (funded_user(f"calm{next(_ids)}", 1) for _ in range(4))
    banned.is_active = False
    banned.save(update_fields=["is_active"])
    exclusion_start(user=excluded, period="1d")
    cool_off_start(user=cooling, period="1h")
    now = timezone.now()
    ids = [u.pk for u in (banned, excluded, cooling, free)]
    assert play_barred(user_ids=ids, now=now) == {
        banned.pk: "banned", excluded.pk: "self_excluded", cooling.pk: "cooling_off",
    }
    assert play_barred(user_ids=ids, now=now + timedelta(hours=2)) == {banned.pk: "banned", excluded.pk: "self_excluded"}


def test_the_page_starts_a_cool_off_and_stands_the_player_up(client: Client) -> None:
    user, table = funded_user(f"calm{next(_ids)}", 10_000_00, language="en"), table_at("thirteen")
    seat_join(table_id=table.pk, user=user, buy_in=table.stake_level.min_buy_in, request_id="a")
    client.force_login(user)
    assert client.post(reverse("responsible-limits"), {"cool_off": "24h"}).status_code == 302
    page = client.get(reverse("responsible-limits")).content.decode()
    assert "You are taking a break from play until" in page
    assert not Seat.objects.filter(user=user).exists()
    assert wallet_balance(user=user) == 10_000_00
