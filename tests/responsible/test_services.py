"""Loss limits, the 24-hour wait for raising them, self-exclusion, and their enforcement at
buy-in and top-up (seat_join, seat_top_up) on a real database."""

from __future__ import annotations

import itertools
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone, translation

from accounts.models import User
from games.services.seating import seat_join, seat_leave, seat_top_up
from responsible.errors import LimitRefused, SettingRefused
from responsible.models import LimitChange, LimitRefusal, PendingChange, PlayLimits, Refusal, Setting
from responsible.selectors import DAY, limit_refusals, limits_current, table_loss
from responsible.services import exclusion_start, limits_set
from tables.models import Table
from tests.factories import funded_user, table_at
from wallet.selectors import wallet_balance

pytestmark = pytest.mark.django_db

_ids = itertools.count(1)


def _player(coins: int = 10_000_00) -> User:
    return funded_user(f"careful{next(_ids)}", coins)


def _table() -> Table:
    return table_at("thirteen")


def _join(table: Table, user: User, amount: int | None = None) -> Any:
    return seat_join(table_id=table.pk, user=user, buy_in=amount or table.stake_level.min_buy_in,
                     request_id=f"join{next(_ids)}")


def test_lowering_a_limit_applies_at_once_and_is_recorded() -> None:
    user = _player()
    limits_set(user=user, daily=500_00, weekly=None, reminder_minutes=None)
    limits_set(user=user, daily=300_00, weekly=None, reminder_minutes=None)
    assert PlayLimits.objects.get(user=user).daily_loss_limit == 300_00
    assert limits_current(user=user, now=timezone.now()).pending == {}
    changes = list(LimitChange.objects.filter(user=user, setting=Setting.DAILY).order_by("id"))
    assert [(c.old_value, c.new_value) for c in changes] == [(None, 500_00), (500_00, 300_00)]


def test_raising_or_removing_a_limit_waits_24_hours(time_machine: Any) -> None:
    time_machine.move_to(timezone.now(), tick=False)
    user = _player()
    limits_set(user=user, daily=300_00, weekly=1_000_00, reminder_minutes=None)
    limits_set(user=user, daily=900_00, weekly=None, reminder_minutes=None)
    now = timezone.now()
    limits = limits_current(user=user, now=now)
    assert (limits.daily, limits.weekly) == (300_00, 1_000_00)
    assert limits.pending["daily"].value == 900_00 and limits.pending["daily"].applies_at == now + timedelta(hours=24)
    assert limits.pending["weekly"].value is None
    time_machine.shift(timedelta(hours=24, seconds=1))
    limits = limits_current(user=user, now=timezone.now())
    assert (limits.daily, limits.weekly, limits.pending) == (900_00, None, {})


def test_a_buy_in_past_the_daily_limit_is_refused_and_reaching_it_blocks_the_next() -> None:
    table, other = _table(), _table()
    minimum = table.stake_level.min_buy_in
    user = _player()
    limits_set(user=user, daily=minimum * 2, weekly=None, reminder_minutes=None)
    with pytest.raises(LimitRefused) as refused:
        _join(table, user, minimum * 2 + 1)
    assert refused.value.code == "loss_limit"
    _join(table, user, minimum)
    seat_top_up(table_id=table.pk, user=user, amount=minimum, request_id="top")  # exactly the limit
    assert table_loss(user=user, since=timezone.now() - DAY) == minimum * 2
    with pytest.raises(LimitRefused):
        seat_top_up(table_id=table.pk, user=user, amount=1, request_id="top2")
    with pytest.raises(LimitRefused):
        _join(other, user, minimum)


def test_cashing_out_counts_against_the_loss() -> None:
    table = _table()
    minimum = table.stake_level.min_buy_in
    user = _player()
    limits_set(user=user, daily=None, weekly=minimum, reminder_minutes=None)
    _join(table, user, minimum)
    seat_leave(table_id=table.pk, user=user)
    assert table_loss(user=user, since=timezone.now() - DAY) == 0
    _join(table, user, minimum)  # back, the coins were cashed out


def test_the_refusal_is_translated() -> None:
    table = _table()
    user = _player()
    limits_set(user=user, daily=1, weekly=None, reminder_minutes=None)
    with translation.override("zh-hans"), pytest.raises(LimitRefused) as refused:
        _join(table, user)
    assert "每日" in str(refused.value)


def test_self_exclusion_refuses_sitting_and_topping_up_but_not_leaving(time_machine: Any) -> None:
    time_machine.move_to(timezone.now(), tick=False)
    table, other = _table(), _table()
    user = _player()
    _join(table, user)
    exclusion_start(user=user, period="7d")
    with pytest.raises(LimitRefused) as refused:
        _join(other, user)
    assert refused.value.code == "self_excluded"
    with pytest.raises(LimitRefused):
        seat_top_up(table_id=table.pk, user=user, amount=100, request_id="top")
    seat_leave(table_id=table.pk, user=user)  # cashing out still works
    assert wallet_balance(user=user) == 10_000_00
    with pytest.raises(SettingRefused):
        exclusion_start(user=user, period="1d")  # cannot be shortened
    time_machine.shift(timedelta(days=7, seconds=1))
    _join(other, user)


def test_setting_the_same_value_again_cancels_a_pending_raise() -> None:
    user = _player()
    limits_set(user=user, daily=100_00, weekly=None, reminder_minutes=None)
    limits_set(user=user, daily=200_00, weekly=None, reminder_minutes=None)
    assert PendingChange.objects.filter(user=user).count() == 1
    limits_set(user=user, daily=100_00, weekly=None, reminder_minutes=None)
    assert PendingChange.objects.filter(user=user).count() == 0


def test_refused_buy_ins_and_top_ups_are_kept_for_staff_and_allowed_ones_are_not() -> None:
    table, other = _table(), _table()
    user = _player()
    _join(table, user)
    assert not LimitRefusal.objects.filter(user=user).exists()  # an allowed buy-in: nothing kept
    limits_set(user=user, daily=table.stake_level.min_buy_in + 1, weekly=None, reminder_minutes=None)
    with pytest.raises(LimitRefused):
        seat_top_up(table_id=table.pk, user=user, amount=500, request_id="top")
    exclusion_start(user=user, period="7d")
    with pytest.raises(LimitRefused):
        _join(other, user, 1_234_00)
    kept = [(r.reason, r.amount, r.table_id) for r in limit_refusals(user=user)]
    assert kept == [(Refusal.SELF_EXCLUDED, 1_234_00, other.pk), (Refusal.LOSS_LIMIT, 500, table.pk)]
    assert wallet_balance(user=user) == 10_000_00 - table.stake_level.min_buy_in  # the refusals moved nothing
