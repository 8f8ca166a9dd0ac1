"""Whether a player may claim the daily bonus (rewards.selectors): the platform's calendar day,
and defaults that seat a player who claims it at the lowest stake of every game."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.utils import translation

from accounts.models import User
from games.engine.registry import game_codes
from rewards.models import DailyBonus
from rewards.selectors import bonus_day, daily_bonus_status
from rewards.services import daily_bonus_claim
from tables.models import StakeLevel
from tests.factories import ensure_stake_levels

pytestmark = pytest.mark.django_db


def test_every_games_lowest_minimum_buy_in_is_reachable_with_the_default_bonus() -> None:
    ensure_stake_levels()
    terms = DailyBonus.current()
    for game in game_codes():
        lowest = min(StakeLevel.objects.filter(game=game, active=True).values_list("min_buy_in", flat=True))
        assert lowest <= terms.amount, game
        # a player short of the lowest buy-in may claim, and holds it afterwards
        assert lowest <= terms.floor, game


def test_a_player_with_nothing_reaches_the_trios_lowest_stake_after_one_claim() -> None:
    ensure_stake_levels()
    user = User.objects.create_user(username="broke", password="x" * 12)
    trio = StakeLevel.objects.filter(game="thirteen_trio", active=True).order_by("min_buy_in").first()
    assert trio is not None
    txn = daily_bonus_claim(user=user)
    assert txn.entries.get(account__isnull=False).balance_after >= trio.min_buy_in


def test_the_day_is_the_platforms_calendar_day(settings: Any) -> None:
    settings.TIME_ZONE = "Asia/Shanghai"
    # 16:30 UTC is 00:30 the next day in Shanghai
    day, next_at = bonus_day(now=dt.datetime(2026, 3, 10, 16, 30, tzinfo=dt.UTC))
    assert day == dt.date(2026, 3, 11)
    assert next_at == dt.datetime(2026, 3, 11, 16, 0, tzinfo=dt.UTC)


def test_a_refusal_says_when_the_next_bonus_is_due_in_the_players_language() -> None:
    DailyBonus.objects.update_or_create(pk=1, defaults={"amount": 100})
    user = User.objects.create_user(username="twice", password="x" * 12)
    now = dt.datetime(2026, 3, 10, 9, 0, tzinfo=dt.UTC)
    assert daily_bonus_status(user=user, now=now).eligible
    daily_bonus_claim(user=user, now=now)
    status = daily_bonus_status(user=user, now=now)
    assert status.reason == "claimed"
    assert status.next_at == dt.datetime(2026, 3, 11, tzinfo=dt.UTC)
    with translation.override("en"):
        assert "next one" in status.message() and "2026" in status.message()
    with translation.override("zh-hans"):
        assert "next one" not in status.message() and "2026" in status.message()
