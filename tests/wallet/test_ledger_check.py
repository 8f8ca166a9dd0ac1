"""ledger_check prints the totals and exits non-zero on each kind of discrepancy.

Discrepancies are made with raw SQL around the guards, inside the test's transaction (rolled back).
"""

from __future__ import annotations

import io

import pytest
from django.core.management import CommandError, call_command
from django.db import connection

from accounts.models import User
from games.services.seating import seat_join, seat_leave
from tables.models import Seat, Table
from tests.factories import funded_user, table_at
from tests.wallet.conftest import key, on_postgres
from wallet import services
from wallet.models import Account, Entry, LedgerTransaction

pytestmark = pytest.mark.django_db


@pytest.fixture
def ledger(seated) -> dict[str, int]:
    """Two seated players, a settled hand with commission: a clean ledger."""
    a, b = seated("a", wallet=2_000), seated("b")
    services.wallet_settle_hand(hand_ref="hand:1", table_ref="t1", deltas={a.pk: 950, b.pk: -1_000},
                                house={"commission": 50}, idempotency_key=key())
    return {"wallet_a": Account.objects.get(user=a, kind="wallet").pk, "table_b": Account.objects.get(user=b, kind="table").pk}


def _check() -> tuple[str, str]:
    out, err = io.StringIO(), io.StringIO()
    try:
        call_command("ledger_check", stdout=out, stderr=err)
    except CommandError as failed:
        assert "discrepancies" in str(failed)
        return out.getvalue(), err.getvalue()
    assert "ledger OK" in out.getvalue()
    return out.getvalue(), ""


def _sql(statement: str, params: list[object] | None = None) -> None:
    with connection.cursor() as cursor:
        cursor.execute(statement, params)


def _loosen_postgres(*triggers: str) -> None:
    """Fire the pending deferred checks, then switch triggers off (until the test rolls back)."""
    _sql("SET CONSTRAINTS ALL IMMEDIATE")
    for trigger in triggers:
        _sql(f"ALTER TABLE wallet_entry DISABLE TRIGGER {trigger}")


def _forged_transaction(legs: dict[int | str, int]) -> None:
    """Entries written around the services: an account id or a house name -> amount."""
    txn = LedgerTransaction.objects.create(kind="adjustment", idempotency_key=key("forged"), payload={}, payload_hash="")
    Entry.objects.bulk_create(
        Entry(transaction=txn, amount=amount, house=target, balance_after=None) if isinstance(target, str)
        else Entry(transaction=txn, amount=amount, account_id=target, balance_after=0)
        for target, amount in legs.items()
    )


def test_a_clean_ledger_passes_and_prints_the_totals(ledger) -> None:
    out, problems = _check()
    assert problems == ""
    assert "issued: 120.00" in out and "wallets: 20.00" in out and "table money: 99.50" in out
    assert "house commission: 0.50" in out and "transactions: 5" in out


def test_it_catches_an_unbalanced_transaction(ledger) -> None:
    if on_postgres():
        _loosen_postgres("wallet_entry_balanced")
    _forged_transaction({"commission": 30})  # PostgreSQL would refuse it at commit
    _, problems = _check()
    assert "does not balance: its entries sum to 0.30" in problems
    assert "coins issued 120.00 differ from the balances held 120.30" in problems


def test_it_catches_a_cached_balance_that_differs_from_the_entries(ledger) -> None:
    Account.objects.filter(pk=ledger["table_b"]).update(balance=4_100)
    _, problems = _check()
    assert f"account {ledger['table_b']} (table:t1:" in problems
    assert "caches 41.00 but its entries sum to 40.00" in problems


def test_it_catches_a_negative_balance(ledger) -> None:
    if on_postgres():
        _loosen_postgres()
        _sql("ALTER TABLE wallet_account DROP CONSTRAINT wallet_account_balance_not_negative")
    else:
        _sql("PRAGMA ignore_check_constraints = ON")
    try:
        _forged_transaction({ledger["wallet_a"]: -2_500, "commission": 2_500})
        Account.objects.filter(pk=ledger["wallet_a"]).update(balance=-500)
        _, problems = _check()
    finally:
        if not on_postgres():
            _sql("PRAGMA ignore_check_constraints = OFF")
    assert f"account {ledger['wallet_a']} (wallet:" in problems and "is negative: -5.00" in problems
    assert "does not balance" not in problems and "caches" not in problems and "issued" not in problems


def test_it_catches_a_missing_guard(ledger) -> None:
    if on_postgres():
        _loosen_postgres("wallet_entry_append_only")
    else:
        _sql("DROP TRIGGER wallet_entry_append_only")
    _, problems = _check()
    assert "database guard wallet_entry_append_only is missing or disabled" in problems


# --- table money that no seat holds -----------------------------------------------------------
# The stranded state is made the way an admin delete of a table used to make it: the seats
# deleted with the ORM (as the cascade did), the table money left in escrow.

def _seated_at_a_table(names: tuple[str, ...]) -> tuple[Table, list[User]]:
    table = table_at("thirteen", name="stranding")
    users = []
    for name in names:
        user = funded_user(name, 10_000)
        seat_join(table_id=table.pk, user=user, buy_in=table.stake_level.min_buy_in, request_id="join")
        users.append(user)
    return table, users


def test_seated_players_table_money_is_no_finding() -> None:
    _seated_at_a_table(("lin", "mei"))
    out, problems = _check()
    assert problems == "" and "table money: 30.00" in out


def test_table_money_whose_seat_was_deleted_is_a_finding() -> None:
    table, (lin, mei) = _seated_at_a_table(("lin", "mei"))
    Seat.objects.filter(table=table, user=lin).delete()
    out, problems = _check()
    assert f"table money 15.00 of user {lin.pk} (lin) is stranded at {table.wallet_ref}, where they hold no seat" in problems
    assert str(mei.pk) + " (mei)" not in problems  # still seated
    assert "stranded table money: 15.00" in out


def test_table_money_at_a_table_that_no_longer_exists_is_a_finding() -> None:
    table, (lin,) = _seated_at_a_table(("lin",))
    ref = table.wallet_ref
    Seat.objects.filter(table=table).delete()  # what the cascade did, then the table row itself
    Table.objects.filter(pk=table.pk).delete()
    _, problems = _check()
    assert f"table money 15.00 of user {lin.pk} (lin) is stranded at {ref}, a table that no longer exists" in problems


def test_seats_that_left_leave_no_finding() -> None:
    table, (lin,) = _seated_at_a_table(("lin",))
    seat_leave(table_id=table.pk, user=lin)  # cashed out: the account stays, at 0
    assert _check()[1] == ""


@pytest.mark.django_db(transaction=True)
def test_the_command_reads_one_snapshot_and_finds_stranded_money_outside_a_transaction() -> None:
    """Run as an operator runs it (no transaction open: PostgreSQL audits in one read-only
    REPEATABLE READ snapshot)."""
    table, (lin,) = _seated_at_a_table(("lin",))
    assert _check()[1] == ""
    Seat.objects.filter(table=table).delete()
    _, problems = _check()
    assert f"user {lin.pk} (lin) is stranded at {table.wallet_ref}" in problems
