"""The database itself refuses edits of the ledger, unbalanced transactions and negative balances."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, connection, transaction

from tests.wallet.conftest import key
from wallet import services
from wallet.models import Account, Entry, LedgerTransaction

pytestmark = pytest.mark.django_db


@pytest.fixture
def grant(player) -> LedgerTransaction:
    lin = player("lin")
    return services.wallet_grant(user=lin, amount=1_000, idempotency_key=key(), actor=None)


def _refused(sql: str, params: list[object]) -> str:
    with pytest.raises(IntegrityError) as refused, transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(sql, params)
    return str(refused.value)


def test_updating_an_entry_or_a_transaction_is_refused(grant: LedgerTransaction) -> None:
    entry = grant.entries.order_by("id").first()
    assert entry is not None
    assert "append-only" in _refused("UPDATE wallet_entry SET amount = amount + 1 WHERE id = %s", [entry.pk])
    assert "append-only" in _refused("UPDATE wallet_ledgertransaction SET memo = 'x' WHERE id = %s", [grant.pk])
    with pytest.raises(IntegrityError), transaction.atomic():
        Entry.objects.filter(pk=entry.pk).update(amount=5)
    assert sorted(grant.entries.values_list("amount", flat=True)) == [-1_000, 1_000]


@pytest.mark.postgres
def test_deleting_an_entry_or_a_transaction_is_refused_by_postgres(grant: LedgerTransaction) -> None:
    entry = grant.entries.first()
    assert entry is not None
    assert "DELETE refused" in _refused("DELETE FROM wallet_entry WHERE id = %s", [entry.pk])
    assert "DELETE refused" in _refused("DELETE FROM wallet_ledgertransaction WHERE id = %s", [grant.pk])
    assert Entry.objects.filter(transaction=grant).count() == 2


@pytest.mark.postgres
def test_an_unbalanced_insert_is_refused_by_postgres(grant: LedgerTransaction) -> None:
    wallet = grant.entries.get(amount__gt=0).account_id
    with pytest.raises(IntegrityError, match="does not balance"), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(
            "INSERT INTO wallet_entry (transaction_id, account_id, house, amount, balance_after) VALUES (%s, %s, '', 500, 1500)",
            [grant.pk, wallet],
        )
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")  # what COMMIT does with the deferred check


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_an_unbalanced_transaction_cannot_commit(player) -> None:
    lin = player("lin", coins=1_000)
    wallet = Account.objects.get(user=lin).pk
    with pytest.raises(IntegrityError, match="does not balance"), transaction.atomic():
        txn = LedgerTransaction.objects.create(kind="grant", idempotency_key="forged", payload={}, payload_hash="")
        Entry.objects.create(transaction=txn, account_id=wallet, amount=1_000_000, balance_after=1_001_000)
        Entry.objects.create(transaction=txn, house="issuance", amount=-999_999)
    assert not LedgerTransaction.objects.filter(idempotency_key="forged").exists()
    with transaction.atomic():  # the same rows, balanced, commit
        txn = LedgerTransaction.objects.create(kind="grant", idempotency_key="balanced", payload={}, payload_hash="")
        Entry.objects.create(transaction=txn, account_id=wallet, amount=5, balance_after=1_005)
        Entry.objects.create(transaction=txn, house="issuance", amount=-5)
    assert txn.entries.count() == 2


def test_a_negative_player_balance_is_refused_by_a_check_constraint(grant: LedgerTransaction) -> None:
    wallet = grant.entries.get(amount__gt=0).account_id
    with pytest.raises(IntegrityError), transaction.atomic():
        Account.objects.filter(pk=wallet).update(balance=-1)
    assert Account.objects.get(pk=wallet).balance == 1_000


def test_each_key_and_each_reversal_is_unique_in_the_database(grant: LedgerTransaction) -> None:
    with pytest.raises(IntegrityError), transaction.atomic():
        LedgerTransaction.objects.create(kind="grant", idempotency_key=grant.idempotency_key, payload={}, payload_hash="")
    LedgerTransaction.objects.create(kind="reversal", idempotency_key="r1", payload={}, payload_hash="", reverses=grant)
    with pytest.raises(IntegrityError), transaction.atomic():
        LedgerTransaction.objects.create(kind="reversal", idempotency_key="r2", payload={}, payload_hash="", reverses=grant)


def test_an_entry_names_exactly_one_account_or_house(grant: LedgerTransaction) -> None:
    wallet = grant.entries.get(amount__gt=0).account_id
    for fields in ({"account_id": wallet, "house": "commission", "balance_after": 1}, {"house": "casino"},
                   {"account_id": wallet}, {"house": "commission", "balance_after": 5}, {}):
        with pytest.raises(IntegrityError), transaction.atomic():
            Entry.objects.create(transaction=grant, amount=5, **fields)
