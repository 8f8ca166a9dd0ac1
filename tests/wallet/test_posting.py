"""How a posting reaches the database: on PostgreSQL two statements and no savepoint, with the
same rows, refusals, replays and locks as the ORM's steps one by one."""

from __future__ import annotations

import hashlib
import json
import re
import threading
from typing import Any

import pytest
from django.core.management import call_command
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from games.engine.canonical import canonical_json
from tests.waiting import wait_until
from tests.wallet.threads import run_concurrently
from wallet import posting, services
from wallet.errors import IdempotencyConflict, InsufficientFunds
from wallet.models import Account, AccountKind, Entry, LedgerTransaction
from wallet.selectors import table_money, wallet_balance

pytestmark = pytest.mark.django_db
SAVEPOINT = re.compile(r"^\s*(SAVEPOINT|RELEASE SAVEPOINT|ROLLBACK TO SAVEPOINT)\b", re.I)


def _settle(users: list[Any], deltas: list[int], key: str, table: str = "t1", commission: int = 0) -> Any:
    return services.wallet_settle_hand(
        hand_ref=f"hand:{key}", table_ref=table, deltas={u.pk: d for u, d in zip(users, deltas, strict=True)},
        house={"commission": commission}, idempotency_key=key, memo="Table 1 #1",
    )


def _statements(run: Any) -> tuple[Any, list[str]]:
    with CaptureQueriesContext(connection) as ctx:
        result = run()
    return result, [q["sql"] for q in ctx.captured_queries]


@pytest.mark.postgres
def test_a_settlement_in_the_callers_transaction_is_two_statements_and_no_savepoint(seated) -> None:
    users = [seated(name) for name in "abcd"]
    with transaction.atomic():
        txn, sql = _statements(lambda: _settle(users, [285, -100, -100, -100], "settle:1", commission=15))
    assert len(sql) == 2 and not any(SAVEPOINT.match(s) for s in sql), sql
    assert [table_money(user=u, table_ref="t1") for u in users] == [5_285, 4_900, 4_900, 4_900]
    stored = LedgerTransaction.objects.get(idempotency_key="settle:1")
    fields = [f.attname for f in LedgerTransaction._meta.concrete_fields]
    assert [getattr(txn, f) for f in fields] == [getattr(stored, f) for f in fields]  # as objects.create returns it
    assert (txn.kind, txn.reference, txn.memo, txn._state.adding) == ("settlement", "hand:settle:1", "Table 1 #1", False)


@pytest.mark.postgres
def test_a_buy_in_at_a_new_table_creates_its_account_in_the_same_two_statements(player) -> None:
    lin = player("lin", coins=10_000)
    with transaction.atomic():
        _txn, sql = _statements(lambda: services.wallet_buy_in(
            user=lin, table_ref="new", amount=3_000, minimum=3_000, idempotency_key="buy:new"))
    assert len(sql) == 2, sql
    assert (wallet_balance(user=lin), table_money(user=lin, table_ref="new")) == (7_000, 3_000)
    assert Account.objects.filter(user=lin, kind=AccountKind.TABLE, table_ref="new").count() == 1


def test_the_sql_path_writes_the_rows_the_orm_path_writes(seated) -> None:
    one = [seated(f"one{i}", table="t1") for i in range(3)]
    two = [seated(f"two{i}", table="t2") for i in range(3)]
    first = _settle(one, [190, -100, -100], "sql", table="t1", commission=10)
    request = {"kind": "settlement", "hand_ref": "hand:orm", "table_ref": "t2",
               "deltas": {str(u.pk): d for u, d in zip(two, [190, -100, -100], strict=True)},
               "house": {"commission": 10}, "memo": "Table 1 #1"}
    with transaction.atomic():
        second = posting._orm_steps(posting.Posting(
            kind="settlement", idempotency_key="orm", request=request, reference="hand:orm", memo="Table 1 #1",
            legs=services._settlement_legs("t2", {u.pk: d for u, d in zip(two, [190, -100, -100], strict=True)},
                                           {"commission": 10}),
        ))

    def rows(txn: Any, users: list[Any]) -> list[tuple[Any, ...]]:
        seat = {u.pk: i for i, u in enumerate(users)}
        return [(e.house, e.amount, e.balance_after, e.account and seat[e.account.user_id])
                for e in Entry.objects.filter(transaction=txn).select_related("account").order_by("id")]

    assert rows(first, one) == rows(second, two)
    stored = LedgerTransaction.objects.get(pk=first.pk)
    assert stored.payload == first.payload and stored.payload_hash == first.payload_hash
    assert stored.payload_hash == hashlib.sha256(canonical_json(stored.payload).encode()).hexdigest()


def test_a_refused_posting_writes_nothing_and_the_callers_transaction_goes_on(seated) -> None:
    a, b = seated("a", table_money=1_000), seated("b", table_money=1_000)
    with transaction.atomic():
        with pytest.raises(InsufficientFunds, match="at table t1: it holds 10.00, this needs 10.01"):
            _settle([a, b], [1_001, -1_001], "too-much")
        assert not LedgerTransaction.objects.filter(idempotency_key="too-much").exists()
        _settle([a, b], [1_000, -1_000], "all-of-it")  # the caller's transaction is usable
    assert [table_money(user=u, table_ref="t1") for u in (a, b)] == [2_000, 0]
    assert _settle([a, b], [-1_000, 1_000], "too-much").pk  # a refused key was never taken


def test_a_replayed_key_in_the_callers_transaction_returns_the_first_and_it_goes_on(seated) -> None:
    a, b = seated("a"), seated("b")
    first = _settle([a, b], [500, -500], "once")
    with transaction.atomic():
        again = _settle([a, b], [500, -500], "once")
        assert (again.pk, first.replayed, again.replayed) == (first.pk, False, True)
        with pytest.raises(IdempotencyConflict, match="different deltas"):
            _settle([a, b], [400, -400], "once")
        assert LedgerTransaction.objects.filter(idempotency_key="once").count() == 1
    assert table_money(user=a, table_ref="t1") == 5_500


def test_a_payload_is_hashed_as_a_json_reader_gets_it_back() -> None:
    request = {"kind": "grant", "deltas": {10: 1, 9: 2}, "legs": (1, 2)}  # keys and tuples a reader changes
    made = posting.Posting(kind="grant", idempotency_key="k", request=request)
    again = json.loads(canonical_json(request))
    assert made.payload == again == {"kind": "grant", "deltas": {"10": 1, "9": 2}, "legs": [1, 2]}
    assert made.payload_hash == hashlib.sha256(canonical_json(again).encode()).hexdigest()


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_concurrent_first_buy_ins_at_a_table_create_one_account_and_lose_nothing(player) -> None:
    lin = player("lin", coins=10_000)

    def buy_in(i: int) -> Any:
        return services.wallet_buy_in(user=lin, table_ref="fresh", amount=100, minimum=1, idempotency_key=f"b{i}")

    results = run_concurrently(buy_in, 8)
    assert all(isinstance(r, LedgerTransaction) for r in results), results
    assert Account.objects.filter(user=lin, kind=AccountKind.TABLE, table_ref="fresh").count() == 1
    assert (wallet_balance(user=lin), table_money(user=lin, table_ref="fresh")) == (9_200, 800)
    call_command("ledger_check")


def _a_backend_waits_for_a_lock() -> bool:
    """Whether a session of this database is waiting for a lock (read fresh, not from the
    transaction's statistics snapshot)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_stat_clear_snapshot()")
        cursor.execute(
            "SELECT count(*) FROM pg_locks WHERE NOT granted AND pid IN "
            "(SELECT pid FROM pg_stat_activity WHERE datname = current_database())"
        )
        return bool(cursor.fetchone()[0])


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("inside_callers_transaction", [False, True])
def test_funds_taken_by_a_concurrent_posting_refuse_and_roll_the_block_back(
    seated, inside_callers_transaction: bool
) -> None:
    """The posting read a's table money before the cash-out committed, wrote its header, then
    waited for the lock: refused as the ORM's steps refuse, and its header is never committed."""
    a, b = seated("a", table_money=1_000), seated("b", table_money=1_000)
    holding = threading.Event()

    def cash_out() -> None:
        with transaction.atomic():
            services.wallet_cash_out(user=a, table_ref="t1", amount=900, idempotency_key="first")
            holding.set()
            # the settlement reads a's 1,000 now, then waits for the lock this block holds
            wait_until(_a_backend_waits_for_a_lock, timeout=10, what="the settlement waiting for the lock")

    def settle() -> Any:
        holding.wait(10)
        if not inside_callers_transaction:
            return _settle([a, b], [-500, 500], "second")
        with transaction.atomic():
            try:
                _settle([a, b], [-500, 500], "second")
            except InsufficientFunds as refusal:
                return refusal, transaction.get_rollback()
        raise AssertionError("not refused")

    results = run_concurrently(lambda i: cash_out() if i == 0 else settle(), 2)
    refusal = results[1][0] if inside_callers_transaction else results[1]
    assert isinstance(refusal, InsufficientFunds), results
    assert "at table t1: it holds 1.00, this needs 5.00" in str(refusal)
    if inside_callers_transaction:
        assert results[1][1] is True  # the caller's block rolls back
    assert not LedgerTransaction.objects.filter(idempotency_key="second").exists()
    assert [table_money(user=u, table_ref="t1") for u in (a, b)] == [100, 1_000]
    call_command("ledger_check")
