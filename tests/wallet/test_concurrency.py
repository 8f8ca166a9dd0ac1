"""Concurrent postings on PostgreSQL: threads, each on its own connection, committing for real."""

from __future__ import annotations

import random
import threading
from collections import Counter
from contextlib import nullcontext
from typing import Any

import pytest
from django.core.management import call_command
from django.db import connection, transaction

from tests.wallet.threads import run_concurrently
from wallet import services
from wallet.errors import InsufficientFunds
from wallet.models import Account, AccountKind, LedgerTransaction
from wallet.selectors import table_money, wallet_balance

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def _ledger_ok() -> None:
    call_command("ledger_check")  # raises CommandError on any discrepancy


def test_fifty_concurrent_buy_ins_cannot_spend_a_wallet_twice(player) -> None:
    lin = player("lin", coins=100_00)

    def buy_in(i: int) -> Any:
        return services.wallet_buy_in(user=lin, table_ref=f"t{i % 5}", amount=10_00, minimum=1,
                                      idempotency_key=f"buy-{i}")

    results = run_concurrently(buy_in, 50)
    refused = [r for r in results if isinstance(r, Exception)]
    assert len(refused) == 40 and all(isinstance(r, InsufficientFunds) for r in refused)
    assert all("Not enough" in str(r) for r in refused)
    assert sum(isinstance(r, LedgerTransaction) for r in results) == 10
    assert wallet_balance(user=lin) == 0
    assert sum(table_money(user=lin, table_ref=f"t{i}") for i in range(5)) == 100_00
    _ledger_ok()


def test_fifty_concurrent_requests_with_one_key_post_once(player) -> None:
    lin = player("lin", coins=100_00)

    def buy_in(i: int) -> Any:
        return services.wallet_buy_in(user=lin, table_ref="t1", amount=10_00, minimum=1, idempotency_key="one-key")

    results = run_concurrently(buy_in, 50)
    assert all(isinstance(r, LedgerTransaction) for r in results), [r for r in results if isinstance(r, Exception)]
    assert len({r.pk for r in results}) == 1
    assert LedgerTransaction.objects.filter(idempotency_key="one-key").count() == 1
    assert (wallet_balance(user=lin), table_money(user=lin, table_ref="t1")) == (90_00, 10_00)
    _ledger_ok()


@pytest.mark.parametrize("inside_callers_transaction", [False, True])
def test_two_concurrent_settlements_of_one_hand_apply_once(seated, inside_callers_transaction: bool) -> None:
    a, b, c, d = (seated(name, table_money=1_000_00) for name in "abcd")
    deltas = {a.pk: 285_00, b.pk: -100_00, c.pk: -100_00, d.pk: -100_00}

    def settle(i: int) -> Any:
        with transaction.atomic() if inside_callers_transaction else nullcontext():
            txn = services.wallet_settle_hand(hand_ref="hand:77", table_ref="t1", deltas=deltas,
                                              house={"commission": 15_00}, idempotency_key="settle:hand:77")
            LedgerTransaction.objects.count()  # the caller's transaction is still usable
            return txn

    results = run_concurrently(settle, 2)
    assert all(isinstance(r, LedgerTransaction) for r in results) and results[0].pk == results[1].pk
    assert [table_money(user=u, table_ref="t1") for u in (a, b, c, d)] == [1_285_00, 900_00, 900_00, 900_00]
    assert LedgerTransaction.objects.filter(kind="settlement").count() == 1
    _ledger_ok()


def _bank_snapshot(ids: list[int]) -> tuple[int, int, int]:
    """(total, lowest, entries total) of the 8 accounts, read in one REPEATABLE READ snapshot."""
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
        balances = []
        for pk in ids:  # one statement per account: only the snapshot keeps them consistent
            cursor.execute("SELECT balance FROM wallet_account WHERE id = %s", [pk])
            balances.append(cursor.fetchone()[0])
        cursor.execute("SELECT coalesce(sum(amount), 0) FROM wallet_entry WHERE account_id = ANY(%s)", [ids])
        return sum(balances), min(balances), int(cursor.fetchone()[0])


def test_bank_no_snapshot_ever_shows_a_wrong_total_or_a_negative_balance(seated) -> None:
    users = [seated(f"p{i}", table="bank", table_money=1_000) for i in range(8)]
    ids = list(Account.objects.filter(kind=AccountKind.TABLE, table_ref="bank").order_by("id").values_list("id", flat=True))
    stop, snapshots, moved = threading.Event(), [], Counter()

    def writer(worker: int) -> None:
        rng, n = random.Random(worker), 0
        while not stop.is_set():
            src, dst = rng.sample(users, 2)
            amount, n = rng.randint(1, 400), n + 1
            try:
                services.wallet_settle_hand(hand_ref=f"bank:{worker}:{n}", table_ref="bank",
                                            deltas={dst.pk: amount, src.pk: -amount}, house={},
                                            idempotency_key=f"bank:{worker}:{n}")
                moved["ok"] += 1
            except InsufficientFunds:
                moved["refused"] += 1

    def reader() -> None:
        while not stop.is_set():
            snapshots.append(_bank_snapshot(ids))
            with connection.cursor() as cursor:  # and the same in one statement
                cursor.execute("SELECT sum(balance), min(balance), 0 FROM wallet_account WHERE id = ANY(%s)", [ids])
                total, lowest, _ = cursor.fetchone()
                snapshots.append((int(total), int(lowest), int(total)))

    def run(i: int) -> None:
        if i == 8:
            reader()
        else:
            writer(i)

    timer = threading.Timer(4.0, stop.set)
    timer.start()
    results = run_concurrently(run, 9)
    assert [r for r in results if isinstance(r, BaseException)] == []
    assert moved["ok"] > 100 and len(snapshots) > 20
    wrong = [s for s in snapshots if s[0] != 8_000 or s[1] < 0 or s[2] != 8_000]
    assert wrong == []
    _ledger_ok()


def test_overlapping_buy_ins_settlements_and_cash_outs_never_deadlock_or_double_post(seated) -> None:
    players = [seated(f"m{i}", table="mix", table_money=300, wallet=500) for i in range(4)]
    for p in players[:2]:  # two of them also sit at a second table
        services.wallet_buy_in(user=p, table_ref="mix2", amount=100, minimum=1, idempotency_key=f"seat2-{p.pk}")
    posted, refused, errors = Counter(), Counter(), []
    before = LedgerTransaction.objects.count()

    def operation(twin: str, n: int) -> Any:
        """The n-th request of a worker; twins (the same ``twin``) build the very same request."""
        rng, key = random.Random(f"{twin}:{n}"), f"{twin}:{n}"
        table = rng.choice(["mix", "mix", "mix2"])
        seats = players if table == "mix" else players[:2]
        op, user, amount = rng.choice(["buy_in", "settle", "settle", "cash_out"]), rng.choice(seats), rng.randint(1, 200)
        if op == "buy_in":
            return lambda: services.wallet_top_up(user=user, table_ref=table, amount=amount, idempotency_key=key)
        if op == "cash_out":
            return lambda: services.wallet_cash_out(user=user, table_ref=table, amount=amount, idempotency_key=key)
        winner, *losers = rng.sample(seats, len(seats))
        loss = amount // 2 + 1
        deltas = {u.pk: -loss for u in losers} | {winner.pk: loss * len(losers) - loss // 10}
        return lambda: services.wallet_settle_hand(hand_ref=key, table_ref=table, deltas=deltas,
                                                   house={"commission": loss // 10}, idempotency_key=key)

    def worker(index: int) -> None:
        for n in range(60):
            # every third request is sent by two workers at once: the same key, the same request
            twin = f"pair{index // 2}" if n % 3 == 0 else f"w{index}"
            try:
                posted[operation(twin, n)().pk] += 1
            except InsufficientFunds as refusal:
                refused[twin, n] += 1
                assert "Not enough" in str(refusal)
            except Exception as error:  # noqa: BLE001 - any other error (a deadlock...) fails the test
                errors.append(repr(error))

    results = run_concurrently(worker, 8)
    assert [r for r in results if isinstance(r, BaseException)] == [] and errors == []
    assert sum(refused.values()) > 0 and len(posted) > 100
    assert LedgerTransaction.objects.count() - before == len(posted)  # twins share one transaction
    assert max(posted.values()) == 2  # ... and both got it back
    _ledger_ok()
