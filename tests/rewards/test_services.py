"""The daily bonus's claim (rewards.services): once a platform day, to a player short of coins
who may play, from the bank into the wallet as one balanced ``daily_bonus`` transaction."""

from __future__ import annotations

import datetime as dt
import itertools
from typing import Any

import pytest
from django.db.models import Sum
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.django import TestCase

from accounts.models import User
from responsible.models import PlayLimits
from rewards.errors import BonusRefused
from rewards.models import DAILY_BONUS_AMOUNT_DEFAULT, DAILY_BONUS_FLOOR_DEFAULT, DailyBonus
from rewards.services import daily_bonus_claim
from tests.factories import funded_user
from wallet.models import Entry, LedgerTransaction, TransactionKind
from wallet.selectors import house_balances, wallet_balance

pytestmark = pytest.mark.django_db
NOON = dt.datetime(2026, 3, 10, 12, 0, tzinfo=dt.UTC)
_names = itertools.count(1)


def _player(coins: int = 0) -> Any:
    name = f"short{next(_names)}"
    if coins:
        return funded_user(name, coins)
    return User.objects.create_user(username=name, password="x" * 12)


def test_a_player_short_of_coins_gets_the_bonus_once_a_day() -> None:
    user = _player(100)
    txn = daily_bonus_claim(user=user, now=NOON)
    assert txn.kind == TransactionKind.DAILY_BONUS
    assert wallet_balance(user=user) == 100 + DAILY_BONUS_AMOUNT_DEFAULT
    assert sum(e.amount for e in txn.entries.all()) == 0
    assert txn.entries.get(house="issuance").amount == -DAILY_BONUS_AMOUNT_DEFAULT
    with pytest.raises(BonusRefused) as refused:
        daily_bonus_claim(user=user, now=NOON + dt.timedelta(hours=11, minutes=59))
    assert refused.value.code == "claimed"
    assert LedgerTransaction.objects.filter(kind=TransactionKind.DAILY_BONUS).count() == 1


def test_the_second_claim_of_a_day_is_refused_as_claimed_even_when_still_short() -> None:
    DailyBonus.objects.update_or_create(pk=1, defaults={"amount": 1_000, "floor": DAILY_BONUS_FLOOR_DEFAULT})
    user = _player()
    daily_bonus_claim(user=user, now=NOON)
    with pytest.raises(BonusRefused) as refused:
        daily_bonus_claim(user=user, now=NOON + dt.timedelta(hours=1))
    assert refused.value.code == "claimed"
    assert "2026" in str(refused.value)  # when the next one is due: the next platform day
    assert wallet_balance(user=user) == 1_000


def test_the_next_platform_day_gives_another(settings: Any) -> None:
    DailyBonus.objects.update_or_create(pk=1, defaults={"amount": 1_000, "floor": DAILY_BONUS_FLOOR_DEFAULT})
    user = _player()
    daily_bonus_claim(user=user, now=dt.datetime(2026, 3, 10, 23, 59, tzinfo=dt.UTC))
    daily_bonus_claim(user=user, now=dt.datetime(2026, 3, 11, 0, 0, tzinfo=dt.UTC))
    assert wallet_balance(user=user) == 2_000


def test_a_player_holding_the_floor_in_table_money_is_refused() -> None:
    from tests.factories import table_at
    from wallet.services import wallet_buy_in

    user = _player(DAILY_BONUS_FLOOR_DEFAULT)
    table = table_at("thirteen")
    wallet_buy_in(user=user, table_ref=table.wallet_ref, amount=DAILY_BONUS_FLOOR_DEFAULT, minimum=1,
                  idempotency_key="b")
    assert wallet_balance(user=user) == 0
    with pytest.raises(BonusRefused) as refused:
        daily_bonus_claim(user=user, now=NOON)
    assert refused.value.code == "enough"
    assert not LedgerTransaction.objects.filter(kind=TransactionKind.DAILY_BONUS).exists()


@pytest.mark.parametrize("reason", ["banned", "self_excluded", "cooling_off"])
def test_the_banned_the_self_excluded_and_those_cooling_off_are_refused(reason: str) -> None:
    user = _player()
    if reason == "banned":
        User.objects.filter(pk=user.pk).update(is_active=False)
    else:
        field = "excluded_until" if reason == "self_excluded" else "cooling_until"
        PlayLimits.objects.create(user=user, **{field: NOON + dt.timedelta(days=1)})
    with pytest.raises(BonusRefused) as refused:
        daily_bonus_claim(user=user, now=NOON)
    assert refused.value.code == reason
    assert wallet_balance(user=user) == 0


def test_an_amount_of_zero_switches_the_bonus_off() -> None:
    DailyBonus.objects.update_or_create(pk=1, defaults={"amount": 0})
    with pytest.raises(BonusRefused) as refused:
        daily_bonus_claim(user=_player(), now=NOON)
    assert refused.value.code == "off"


class TestLedgerProperty(TestCase):
    """Whatever the terms and the holdings, a claim posts the amount exactly when holdings are
    below the floor, and the ledger balances: coins issued equal coins held."""

    @settings(max_examples=30, deadline=None)
    @given(amount=st.integers(1, 10**9), floor=st.integers(0, 10**9), held=st.integers(0, 10**9),
           claims=st.integers(1, 3))
    def test_a_claim_pays_exactly_when_short_and_keeps_the_ledger_balanced(
        self, amount: int, floor: int, held: int, claims: int
    ) -> None:
        DailyBonus.objects.update_or_create(pk=1, defaults={"amount": amount, "floor": floor})
        user = _player(held)
        paid = 0
        for _ in range(claims):
            try:
                daily_bonus_claim(user=user, now=NOON)
                paid += amount
            except BonusRefused as refused:
                assert refused.code in ("enough", "claimed")
        assert paid == (amount if held < floor else 0)
        assert wallet_balance(user=user) == held + paid
        issued = -house_balances()["issuance"]
        held_total = Entry.objects.filter(account__isnull=False).aggregate(s=Sum("amount"))["s"] or 0
        assert issued == held_total
