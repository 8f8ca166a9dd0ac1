"""Wallet services: each posting balances, refuses overdraws and replays once per key."""

from __future__ import annotations

import pytest
from django.utils import translation

from tests.wallet.conftest import key
from wallet import services
from wallet.errors import (
    AlreadyReversed,
    BelowMinimumBuyIn,
    IdempotencyConflict,
    InsufficientFunds,
    InvalidPosting,
    TransactionNotFound,
    UnbalancedTransaction,
)
from wallet.models import Account, AccountKind, LedgerTransaction, TransactionKind
from wallet.selectors import house_balances, table_money, wallet_balance

pytestmark = pytest.mark.django_db


def test_grant_moves_coins_from_the_bank_to_the_wallet(player) -> None:
    lin = player("lin")
    txn = services.wallet_grant(user=lin, amount=12_50, idempotency_key="g-1", actor=None, memo="welcome")
    assert wallet_balance(user=lin) == 1250
    assert house_balances()["issuance"] == -1250
    assert sorted(txn.entries.values_list("amount", flat=True)) == [-1250, 1250]
    assert (txn.kind, txn.memo, txn.actor) == (TransactionKind.GRANT, "welcome", None)
    assert len(txn.payload_hash) == 64


def test_replaying_a_key_returns_the_first_transaction_and_posts_nothing(player) -> None:
    lin = player("lin")
    first = services.wallet_grant(user=lin, amount=100, idempotency_key="g-1", actor=None)
    again = services.wallet_grant(user=lin, amount=100, idempotency_key="g-1", actor=None)
    assert again.pk == first.pk
    assert (first.replayed, again.replayed) == (False, True)  # what the caller is told
    assert wallet_balance(user=lin) == 100
    assert LedgerTransaction.objects.count() == 1


def test_a_key_reused_with_a_different_request_is_refused_naming_the_field(player) -> None:
    lin, bo = player("lin"), player("bo")
    services.wallet_grant(user=lin, amount=100, idempotency_key="g-1", actor=None)
    with pytest.raises(IdempotencyConflict, match="different amount") as amount_conflict:
        services.wallet_grant(user=lin, amount=200, idempotency_key="g-1", actor=None)
    assert amount_conflict.value.field == "amount"
    with pytest.raises(IdempotencyConflict, match="different user"):
        services.wallet_grant(user=bo, amount=100, idempotency_key="g-1", actor=None)
    with pytest.raises(IdempotencyConflict, match="with a different kind$"):
        services.wallet_buy_in(user=lin, table_ref="t1", amount=50, minimum=1, idempotency_key="g-1")
    assert wallet_balance(user=lin) == 100


def test_amounts_must_be_positive_integers(player) -> None:
    lin = player("lin")
    for amount in (0, -5, 1.5, True):
        with pytest.raises(InvalidPosting):
            services.wallet_grant(user=lin, amount=amount, idempotency_key=key(), actor=None)
    with pytest.raises(InvalidPosting):
        services.wallet_grant(user=lin, amount=5, idempotency_key="", actor=None)
    assert LedgerTransaction.objects.count() == 0


def test_adjust_needs_a_reason_and_cannot_overdraw(player, make_user) -> None:
    lin, admin = player("lin", coins=500), make_user("boss", is_staff=True)
    with pytest.raises(InvalidPosting, match="reason"):
        services.wallet_adjust(user=lin, amount=-100, reason=" ", idempotency_key=key(), actor=admin)
    txn = services.wallet_adjust(user=lin, amount=-200, reason="duplicate grant", idempotency_key=key(), actor=admin)
    assert (txn.memo, txn.actor, wallet_balance(user=lin)) == ("duplicate grant", admin, 300)
    with pytest.raises(InsufficientFunds, match="Not enough coins: your wallet holds 3.00, this needs 4.00."):
        services.wallet_adjust(user=lin, amount=-400, reason="too much", idempotency_key=key(), actor=admin)
    assert wallet_balance(user=lin) == 300
    assert house_balances()["issuance"] == -300


def test_buy_in_moves_wallet_coins_to_table_money(player) -> None:
    lin = player("lin", coins=10_000)
    services.wallet_buy_in(user=lin, table_ref="t1", amount=3_000, minimum=3_000, idempotency_key=key())
    assert (wallet_balance(user=lin), table_money(user=lin, table_ref="t1")) == (7_000, 3_000)
    assert table_money(user=lin, table_ref="t2") == 0


def test_buy_in_below_the_minimum_or_beyond_the_wallet_is_refused(player) -> None:
    lin = player("lin", coins=1_000)
    with pytest.raises(BelowMinimumBuyIn, match="below this table's minimum of 15.00"):
        services.wallet_buy_in(user=lin, table_ref="t1", amount=1_000, minimum=1_500, idempotency_key=key())
    with pytest.raises(InsufficientFunds, match="Not enough coins: your wallet holds 10.00, this needs 15.00."):
        services.wallet_buy_in(user=lin, table_ref="t1", amount=1_500, minimum=1_500, idempotency_key=key())
    assert wallet_balance(user=lin) == 1_000
    assert not Account.objects.filter(kind=AccountKind.TABLE).exists()


def test_top_up_has_no_minimum_beyond_one_minor_unit(seated) -> None:
    lin = seated("lin", table_money=3_000, wallet=100)
    services.wallet_top_up(user=lin, table_ref="t1", amount=1, idempotency_key=key())
    assert table_money(user=lin, table_ref="t1") == 3_001
    assert LedgerTransaction.objects.filter(kind=TransactionKind.BUY_IN).count() == 2


def test_cash_out_all_part_or_nothing(seated) -> None:
    lin = seated("lin", table_money=3_000)
    services.wallet_cash_out(user=lin, table_ref="t1", amount=1_000, idempotency_key=key())
    assert (wallet_balance(user=lin), table_money(user=lin, table_ref="t1")) == (1_000, 2_000)
    with pytest.raises(InsufficientFunds, match="at table t1: it holds 20.00, this needs 25.00"):
        services.wallet_cash_out(user=lin, table_ref="t1", amount=2_500, idempotency_key=key())
    everything = services.wallet_cash_out(user=lin, table_ref="t1", idempotency_key="leave-1")
    assert sorted(everything.entries.values_list("amount", flat=True)) == [-2_000, 2_000]
    assert (wallet_balance(user=lin), table_money(user=lin, table_ref="t1")) == (3_000, 0)
    nothing = services.wallet_cash_out(user=lin, table_ref="t1", idempotency_key="leave-2")
    assert nothing.entries.count() == 0  # recorded, so a replay returns it
    assert services.wallet_cash_out(user=lin, table_ref="t1", idempotency_key="leave-1").pk == everything.pk


def test_settlement_applies_deltas_and_credits_the_house(seated) -> None:
    a, b, c = seated("a"), seated("b"), seated("c")
    txn = services.wallet_settle_hand(
        hand_ref="hand:1", table_ref="t1", deltas={a.pk: 1_900, b.pk: -1_000, c.pk: -1_000},
        house={"commission": 100}, idempotency_key="settle:hand:1",
    )
    assert [table_money(user=u, table_ref="t1") for u in (a, b, c)] == [6_900, 4_000, 4_000]
    assert house_balances()["commission"] == 100
    assert txn.reference == "hand:1"
    assert sorted(txn.entries.values_list("balance_after", flat=True), key=str) == [4_000, 4_000, 6_900, None]


def test_settling_a_hand_twice_applies_it_once(seated) -> None:
    a, b = seated("a"), seated("b")
    kwargs = {"hand_ref": "hand:7", "table_ref": "t1", "deltas": {a.pk: 500, b.pk: -500}, "house": {},
              "idempotency_key": "settle:hand:7"}
    first = services.wallet_settle_hand(**kwargs)
    assert services.wallet_settle_hand(**kwargs).pk == first.pk
    assert table_money(user=a, table_ref="t1") == 5_500
    with pytest.raises(IdempotencyConflict, match="different deltas"):
        services.wallet_settle_hand(**{**kwargs, "deltas": {a.pk: 400, b.pk: -400}})


def test_an_unbalanced_settlement_is_refused_before_touching_anything(seated, django_assert_num_queries) -> None:
    a, b = seated("a"), seated("b")
    with django_assert_num_queries(0), pytest.raises(UnbalancedTransaction, match="sum to 0.01 instead of 0.00"):
        services.wallet_settle_hand(
            hand_ref="hand:1", table_ref="t1", deltas={a.pk: 500, b.pk: -500}, house={"commission": 1},
            idempotency_key=key(),
        )
    with pytest.raises(InvalidPosting, match="unknown house account 'casino'"):
        services.wallet_settle_hand(
            hand_ref="hand:1", table_ref="t1", deltas={a.pk: -5}, house={"casino": 5}, idempotency_key=key()
        )
    with pytest.raises(InvalidPosting, match="commission amount must be a non-negative"):
        services.wallet_settle_hand(
            hand_ref="hand:1", table_ref="t1", deltas={a.pk: 5}, house={"commission": -5}, idempotency_key=key()
        )


def test_a_settlement_cannot_take_more_than_a_seat_holds(seated) -> None:
    a, b = seated("a", table_money=1_000), seated("b", table_money=1_000)
    with pytest.raises(InsufficientFunds, match="at table t1: it holds 10.00, this needs 10.01"):
        services.wallet_settle_hand(
            hand_ref="hand:1", table_ref="t1", deltas={a.pk: 1_001, b.pk: -1_001}, house={}, idempotency_key=key()
        )
    assert table_money(user=a, table_ref="t1") == 1_000
    assert LedgerTransaction.objects.filter(kind=TransactionKind.SETTLEMENT).count() == 0


def test_a_house_banked_table_may_pay_out_of_the_banker_account(seated) -> None:
    a = seated("a")
    services.wallet_settle_hand(
        hand_ref="hand:1", table_ref="t1", deltas={a.pk: 300}, house={"banker": -300}, idempotency_key=key()
    )
    assert (table_money(user=a, table_ref="t1"), house_balances()["banker"]) == (5_300, -300)


def test_an_all_zero_settlement_is_recorded_without_entries(seated) -> None:
    a, b = seated("a"), seated("b")
    txn = services.wallet_settle_hand(
        hand_ref="hand:void", table_ref="t1", deltas={a.pk: 0, b.pk: 0}, house={}, idempotency_key="void"
    )
    assert txn.entries.count() == 0


def test_reversal_negates_every_entry_once(seated, make_user) -> None:
    a, b, admin = seated("a"), seated("b"), make_user("boss", is_staff=True)
    hand = services.wallet_settle_hand(
        hand_ref="hand:1", table_ref="t1", deltas={a.pk: 950, b.pk: -1_000}, house={"commission": 50},
        idempotency_key=key(),
    )
    reversal = services.wallet_reverse(transaction_id=hand.pk, idempotency_key="rev-1", actor=admin, reason="misdeal")
    assert (reversal.kind, reversal.reverses, reversal.memo) == (TransactionKind.REVERSAL, hand, "misdeal")
    assert [table_money(user=u, table_ref="t1") for u in (a, b)] == [5_000, 5_000]
    assert house_balances()["commission"] == 0
    assert services.wallet_reverse(transaction_id=hand.pk, idempotency_key="rev-1", actor=admin, reason="misdeal") \
        == reversal
    with pytest.raises(AlreadyReversed, match=f"transaction {hand.pk} has already been reversed"):
        services.wallet_reverse(transaction_id=hand.pk, idempotency_key="rev-2", actor=admin, reason="again")
    with pytest.raises(InvalidPosting, match="reversal cannot be reversed"):
        services.wallet_reverse(transaction_id=reversal.pk, idempotency_key=key(), actor=admin, reason="undo")
    with pytest.raises(TransactionNotFound):
        services.wallet_reverse(transaction_id=10**9, idempotency_key=key(), actor=admin, reason="x")


def test_a_reversal_that_would_overdraw_is_refused(player) -> None:
    lin = player("lin")
    grant = services.wallet_grant(user=lin, amount=1_000, idempotency_key=key(), actor=None)
    services.wallet_buy_in(user=lin, table_ref="t1", amount=600, minimum=1, idempotency_key=key())
    with pytest.raises(InsufficientFunds, match="holds 4.00, this needs 10.00"):
        services.wallet_reverse(transaction_id=grant.pk, idempotency_key=key(), actor=None, reason="oops")
    assert not LedgerTransaction.objects.filter(kind=TransactionKind.REVERSAL).exists()


def test_compensation_is_paid_from_the_bank(player, make_user) -> None:
    lin, admin = player("lin"), make_user("boss", is_staff=True)
    txn = services.wallet_compensate(
        user=lin, amount=700, dispute_ref="dispute:3", idempotency_key=key(), actor=admin, memo="server fault"
    )
    assert (txn.kind, txn.reference, wallet_balance(user=lin)) == (TransactionKind.DISPUTE_COMPENSATION, "dispute:3", 700)
    assert house_balances()["issuance"] == -700


def test_a_penalty_charged_outside_a_hand_goes_to_the_house(seated) -> None:
    lin = seated("lin", table_money=1_000)
    services.wallet_charge(user=lin, table_ref="t1", amount=50, kind="penalty", reference="hand:9", idempotency_key=key())
    assert (table_money(user=lin, table_ref="t1"), house_balances()["penalty"]) == (950, 50)
    with pytest.raises(InvalidPosting):
        services.wallet_charge(user=lin, table_ref="t1", amount=50, kind="grant", reference="x", idempotency_key=key())


def test_error_messages_are_translated_for_players(player) -> None:
    lin = player("lin", coins=100)
    with pytest.raises(InsufficientFunds) as refused:
        services.wallet_buy_in(user=lin, table_ref="t1", amount=500, minimum=1, idempotency_key=key())
    assert str(refused.value) == "Not enough coins: your wallet holds 1.00, this needs 5.00."
    with translation.override("zh-hans"):
        assert refused.value.localized() == "余额不足：您的钱包有 1.00，需要 5.00。"
    with translation.override("en"):
        assert refused.value.localized() == str(refused.value)


def test_services_inside_a_callers_transaction_roll_back_with_it(player) -> None:
    from django.db import transaction

    lin = player("lin")
    with pytest.raises(RuntimeError), transaction.atomic():
        services.wallet_grant(user=lin, amount=100, idempotency_key="inner", actor=None)
        raise RuntimeError("the caller fails after the posting")
    assert wallet_balance(user=lin) == 0
    assert not LedgerTransaction.objects.filter(idempotency_key="inner").exists()


def test_seed_demo_funds_the_demo_players_once() -> None:
    from django.core.management import call_command

    from accounts.models import User

    call_command("seed_demo")
    call_command("seed_demo")
    alice = User.objects.get(username="alice")
    from accounts.demo import DEMO_COINS

    assert DEMO_COINS == 5_000_000  # 50,000.00 coins
    assert wallet_balance(user=alice) == DEMO_COINS
    assert LedgerTransaction.objects.filter(idempotency_key="demo-grant:alice").count() == 1


def _deadlock() -> Exception:
    from django.db import OperationalError

    class DeadlockDetected(Exception):
        sqlstate = "40P01"  # what psycopg's error carries

    error = OperationalError("deadlock detected")
    error.__cause__ = DeadlockDetected()
    return error


def test_transient_database_errors_are_retried(player, monkeypatch) -> None:
    from wallet import posting

    lin, real, calls = player("lin"), posting._post_once, []

    def flaky(p: posting.Posting) -> LedgerTransaction:
        calls.append(p.idempotency_key)
        if len(calls) < 3:
            raise _deadlock()
        return real(p)

    monkeypatch.setattr(posting, "_post_once", flaky)
    monkeypatch.setattr(posting, "BACKOFF_SECONDS", 0.0)
    monkeypatch.setattr(posting, "_caller_owns_transaction", lambda: False)
    services.wallet_grant(user=lin, amount=100, idempotency_key="retried", actor=None)
    assert calls == ["retried"] * 3 and wallet_balance(user=lin) == 100


def test_retries_are_bounded_and_left_to_a_caller_with_an_open_transaction(player, monkeypatch) -> None:
    from django.db import OperationalError

    from wallet import posting

    lin, calls = player("lin"), []

    def failing(p: posting.Posting) -> LedgerTransaction:
        calls.append(1)
        raise _deadlock()

    monkeypatch.setattr(posting, "_post_once", failing)
    monkeypatch.setattr(posting, "BACKOFF_SECONDS", 0.0)
    with pytest.raises(OperationalError):  # the test itself runs inside a transaction
        services.wallet_grant(user=lin, amount=100, idempotency_key=key(), actor=None)
    assert len(calls) == 1
    monkeypatch.setattr(posting, "_caller_owns_transaction", lambda: False)
    with pytest.raises(OperationalError, match="deadlock"):
        services.wallet_grant(user=lin, amount=100, idempotency_key=key(), actor=None)
    assert len(calls) == 1 + posting.MAX_ATTEMPTS


def test_a_daily_bonus_posts_once_per_player_and_day(player) -> None:
    lin = player("bonuslin")
    first = services.wallet_daily_bonus(user=lin, amount=700, day="2026-03-10")
    again = services.wallet_daily_bonus(user=lin, amount=700, day="2026-03-10")
    assert again.pk == first.pk and again.replayed
    assert first.kind == "daily_bonus" and first.reference == f"daily_bonus:{lin.pk}"
    assert wallet_balance(user=lin) == 700
    with pytest.raises(InvalidPosting):
        services.wallet_daily_bonus(user=lin, amount=0, day="2026-03-11")
