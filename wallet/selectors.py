"""Reads of the ledger. Balances of wallets and table money are the cached, locked-on-write
columns; house balances are sums of their append-only entries."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable

from django.db import connection
from django.db.models import OuterRef, QuerySet, Subquery, Sum
from django.db.models.functions import Coalesce
from django.utils import timezone

from accounts.models import User
from wallet.models import (
    DAILY_BONUS_PREFIX,
    WELCOME_KEY_PREFIX,
    Account,
    AccountKind,
    Entry,
    House,
    LedgerTransaction,
    TransactionKind,
)


def wallet_balance(*, user: User) -> int:
    """The player's wallet balance in minor units (0 before their first grant)."""
    account = Account.objects.filter(kind=AccountKind.WALLET, user=user).only("balance").first()
    return 0 if account is None else account.balance


def table_money(*, user: User, table_ref: str) -> int:
    """The player's table money (escrow) at one table, in minor units."""
    account = Account.objects.filter(kind=AccountKind.TABLE, user=user, table_ref=table_ref).only("balance").first()
    return 0 if account is None else account.balance


def table_money_of(*, user_ids: list[int], table_ref: str) -> dict[int, int]:
    """Table money at one table of each of these players, in one query (0 for none)."""
    held = dict(
        Account.objects.filter(kind=AccountKind.TABLE, table_ref=table_ref, user_id__in=user_ids)
        .values_list("user_id", "balance")
    )
    return {user_id: held.get(user_id, 0) for user_id in user_ids}


def table_money_column(*, table_ref: str, user: str = "user_id") -> Coalesce:
    """Table money at one table as a column of a query whose ``user`` field names the player:
    ``Seat.objects.annotate(table_money=table_money_column(table_ref=...))`` reads every
    seat's in the seats' own query (the account's unique index per user and table)."""
    balance = Account.objects.filter(kind=AccountKind.TABLE, table_ref=table_ref, user=OuterRef(user))
    return Coalesce(Subquery(balance.values("balance")[:1]), 0)


def table_money_list(*, user: User) -> QuerySet[Account]:
    """The player's table accounts holding coins, by table."""
    return Account.objects.filter(kind=AccountKind.TABLE, user=user, balance__gt=0).order_by("table_ref")


def _start_of(moment: dt.date | dt.datetime, *, next_day: bool = False) -> dt.datetime:
    if isinstance(moment, dt.datetime):
        return moment
    day = moment + dt.timedelta(days=1) if next_day else moment
    return dt.datetime.combine(day, dt.time.min, tzinfo=timezone.get_current_timezone())


def wallet_statement(
    *, user: User, kind: str | None = None, since: dt.date | dt.datetime | None = None,
    until: dt.date | dt.datetime | None = None,
) -> QuerySet[Entry]:
    """The entries on the player's wallet and table accounts, newest first.

    ``kind`` filters on the transaction kind; ``since`` is inclusive, ``until`` exclusive for a
    datetime and inclusive for a date (the whole day).
    """
    entries = Entry.objects.filter(account__user=user).select_related("transaction", "account")
    if kind:
        entries = entries.filter(transaction__kind=kind)
    if since is not None:
        entries = entries.filter(transaction__created_at__gte=_start_of(since))
    if until is not None:
        entries = entries.filter(transaction__created_at__lt=_start_of(until, next_day=True))
    return entries.order_by("-id")


def wallet_cash_out_list(*, user: User, memo: str, limit: int = 30) -> list[Entry]:
    """The player's cash-outs to the wallet the system made for ``memo`` (its reason, e.g.
    ``wallet.presenters.AWAY_MEMO``), newest first: each one's wallet entry (the coins back,
    positive) with its transaction (when, and the table in its ``reference``)."""
    entries = Entry.objects.filter(
        account__user=user, account__kind=AccountKind.WALLET, transaction__kind=TransactionKind.CASH_OUT,
        transaction__memo=memo,
    )
    return list(entries.select_related("transaction").order_by("-id")[:limit])


def house_balances() -> dict[str, int]:
    """Each house account's balance (the sum of its entries); ``issuance`` is minus the coins issued."""
    sums = dict(Entry.objects.exclude(house="").values_list("house").annotate(total=Sum("amount")).order_by())
    return {name: int(sums.get(name) or 0) for name in House.values}


def wallet_holdings(*, user: User) -> int:
    """The player's coins in minor units: the wallet and the table money at every table, in one query."""
    return int(Account.objects.filter(user=user).aggregate(total=Sum("balance"))["total"] or 0)


def welcome_funded_statement(ids: list[int], joined_since: dt.datetime) -> tuple[str, list[int | str | dt.datetime]]:
    """``welcome_funded``'s SQL and parameters. SQL both databases run, not the ORM: built by the
    ORM it took 1.4 ms a call, as SQL 0.16 ms (PostgreSQL, four players).

    Each player's grant is looked up by its idempotency key and their bonuses by their reference,
    on those columns' indexes once the ledger is past a few pages. The ``OFFSET 0`` in each EXISTS
    keeps the lookups per player: without it PostgreSQL may answer an EXISTS with one hashed scan
    of the whole ledger, which it chooses when it plans on a small or never analysed ledger, and a
    connection's prepared plan stays that way while the ledger grows, until the table is next
    analysed (docs/SCALING.md "What one action costs"). SQLite takes an OFFSET only after a
    LIMIT, hence ``LIMIT 1``, which an EXISTS implies anyway."""
    ledger = LedgerTransaction._meta.db_table
    sql = (
        f"SELECT u.id FROM {User._meta.db_table} u WHERE u.id IN ({', '.join(['%s'] * len(ids))}) AND ("  # noqa: S608
        f"(u.date_joined >= %s AND EXISTS (SELECT 1 FROM {ledger} g WHERE g.idempotency_key = %s || u.id"
        f" AND g.kind = %s LIMIT 1 OFFSET 0)) OR EXISTS (SELECT 1 FROM {ledger} b WHERE b.reference = %s || u.id"
        " AND b.kind = %s AND b.created_at >= %s LIMIT 1 OFFSET 0))"
    )
    params: list[int | str | dt.datetime] = [  # every value a parameter; the table names are the models'
        *ids, joined_since, WELCOME_KEY_PREFIX, TransactionKind.GRANT.value,
        DAILY_BONUS_PREFIX, TransactionKind.DAILY_BONUS.value, joined_since,
    ]
    return sql, params


def welcome_funded(*, user_ids: Iterable[int], joined_since: dt.datetime) -> set[int]:
    """Which of ``user_ids`` live on the platform's gifts: they joined at or after
    ``joined_since`` and were given welcome coins (``wallet.services.wallet_welcome``), or were
    given a daily bonus (``wallet.services.wallet_daily_bonus``) at or after it. One statement
    (``welcome_funded_statement``); every settlement runs it under the table's lock."""
    ids = [int(pk) for pk in user_ids]
    if not ids:
        return set()
    with connection.cursor() as cursor:
        cursor.execute(*welcome_funded_statement(ids, joined_since))
        return {int(row[0]) for row in cursor.fetchall()}
