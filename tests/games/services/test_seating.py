"""Seating (games/services/seating.py, docs/RULES.md "Money"): a buy-in moves coins from the
wallet to the seat's table money, a top-up adds to it, leaving between hands pays it all back,
and a refused join changes nothing."""

from __future__ import annotations

import pytest

from games.services import seating
from kernel.errors import AppError
from tables.models import Seat
from wallet.selectors import table_money, wallet_balance

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_join_moves_the_buy_in_to_the_table_and_a_top_up_adds_to_it(funded, table_for):
    table, user = table_for("thirteen"), funded(coins=1_000_000)
    buy_in = table.stake_level.min_buy_in
    seat = seating.seat_join(table_id=table.pk, user=user, buy_in=buy_in, request_id="j")
    assert seat.table_id == table.pk and wallet_balance(user=user) == 1_000_000 - buy_in
    assert seating.seat_top_up(table_id=table.pk, user=user, amount=100, request_id="t") == buy_in + 100
    assert table_money(user=user, table_ref=table.wallet_ref) == buy_in + 100
    assert wallet_balance(user=user) == 1_000_000 - buy_in - 100


def test_leaving_between_hands_frees_the_seat_and_pays_every_coin_back(funded, table_for):
    table, user = table_for("thirteen"), funded(coins=1_000_000)
    seating.seat_join(table_id=table.pk, user=user, buy_in=table.stake_level.min_buy_in, request_id="j")
    assert seating.seat_leave(table_id=table.pk, user=user) is True
    assert not Seat.objects.filter(table=table, user=user).exists()
    assert wallet_balance(user=user) == 1_000_000 and table_money(user=user, table_ref=table.wallet_ref) == 0


def test_a_buy_in_below_the_minimum_is_refused_and_moves_nothing(funded, table_for):
    table, user = table_for("thirteen"), funded(coins=1_000_000)
    with pytest.raises(AppError) as refused:
        seating.seat_join(table_id=table.pk, user=user, buy_in=table.stake_level.min_buy_in - 1, request_id="j")
    assert refused.value.localized()
    assert not Seat.objects.filter(table=table).exists() and wallet_balance(user=user) == 1_000_000


@pytest.mark.parametrize("role", ["staff", "auditor", "superuser"])
def test_staff_and_auditors_sit_only_with_the_player_role(funded, table_for, settings, role):
    from django.contrib.auth.models import Group
    from django.utils import translation

    from accounts.models import User
    from accounts.roles import roles_sync

    table, user = table_for("thirteen"), funded(coins=1_000_000)
    User.objects.filter(pk=user.pk).update(is_staff=True, is_superuser=role == "superuser")
    if role == "auditor":
        user.groups.add(roles_sync())
    for language, words in (("en", "Staff and auditor accounts do not play"), ("zh-hans", "工作人员")):
        with translation.override(language), pytest.raises(AppError) as refused:
            seating.seat_join(table_id=table.pk, user=user, buy_in=table.stake_level.min_buy_in, request_id="j")
        assert refused.value.code == "staff" and words in refused.value.localized()
    assert not Seat.objects.filter(table=table).exists() and wallet_balance(user=user) == 1_000_000
    user.groups.add(Group.objects.get_or_create(name=settings.PLAYERS_GROUP)[0])
    seating.seat_join(table_id=table.pk, user=user, buy_in=table.stake_level.min_buy_in, request_id="j2")
    assert Seat.objects.filter(table=table, user=user).exists()
