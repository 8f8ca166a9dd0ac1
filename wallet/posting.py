"""The one writer of ledger rows: post a balanced set of legs, once per idempotency key.

Every service in :mod:`wallet.services` describes its posting as a :class:`Posting` and hands it
to :func:`ledger_post`, which

1. inserts the transaction header first: its unique idempotency key makes a concurrent twin wait
   here, before it holds any account lock, and fail once the first commits;
2. locks the wallet and table accounts involved (``SELECT ... FOR UPDATE ORDER BY id``: ascending
   id order everywhere, so two postings never wait on each other in a cycle), creating missing
   ones; house accounts have no rows to lock (their balance is the sum of their entries);
3. computes the legs (a cash-out of "everything" needs the locked balance), refuses an unbalanced
   set or a balance that would go below zero, with nothing written;
4. inserts the entries and updates the cached balances (one statement on PostgreSQL).

A replayed key returns the first transaction when the request is the same and raises
:class:`IdempotencyConflict` naming the differing field otherwise, also when two requests race.
Deadlocks, serialization failures and lock timeouts are retried a bounded number of times with
jitter, unless the caller already holds an open transaction (then the caller owns the retry).
"""

from __future__ import annotations

import hashlib
import json
import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from django.db import IntegrityError, OperationalError, connection, transaction
from django.db.models import BigIntegerField, Case, F, Q, Value, When

from games.engine.canonical import canonical_json
from wallet.errors import IdempotencyConflict, InsufficientFunds, UnbalancedTransaction
from wallet.models import Account, AccountKind, Entry, LedgerTransaction

MAX_ATTEMPTS = 6
BACKOFF_SECONDS = 0.01
# serialization_failure, deadlock_detected, lock_not_available (lock_timeout)
TRANSIENT_SQLSTATES = frozenset({"40001", "40P01", "55P03"})


HOUSE = "house"


class AccountKey(NamedTuple):
    """Names an account without its id: (kind, user id or None, table_ref or house name)."""

    kind: str
    user_id: int | None
    name: str

    @classmethod
    def wallet(cls, user_id: int) -> AccountKey:
        return cls(AccountKind.WALLET, user_id, "")

    @classmethod
    def table(cls, user_id: int, table_ref: str) -> AccountKey:
        return cls(AccountKind.TABLE, user_id, table_ref)

    @classmethod
    def house(cls, name: str) -> AccountKey:
        return cls(HOUSE, None, name)

    @classmethod
    def of(cls, account: Account) -> AccountKey:
        return cls(account.kind, account.user_id, account.table_ref)

    @classmethod
    def of_entry(cls, entry: Entry) -> AccountKey:
        return cls.house(entry.house) if entry.account is None else cls.of(entry.account)

    def new_account(self) -> Account:
        if self.user_id is None:
            raise ValueError(f"house account {self.name!r} has no row to create")
        if self.kind == AccountKind.TABLE:
            return Account(kind=self.kind, user_id=self.user_id, table_ref=self.name)
        return Account(kind=self.kind, user_id=self.user_id)


class Leg(NamedTuple):
    account: AccountKey
    amount: int


Row = tuple[int | None, str, int, int | None]  # an entry: (account id or None, house or "", amount, balance after)
LegBuilder = Callable[[Mapping[AccountKey, int]], Sequence[Leg]]


@dataclass(frozen=True)
class Posting:
    """What a service wants written. ``request`` is what a replayed key is compared with."""

    kind: str
    idempotency_key: str
    request: dict[str, Any]
    legs: Sequence[Leg] = ()
    build: LegBuilder | None = None  # computes the legs from the locked balances instead
    lock: Sequence[AccountKey] = ()  # wallet/table accounts to lock when ``build`` needs them
    reference: str = ""
    actor_id: int | None = None
    memo: str = ""
    reverses_id: int | None = None
    payload: dict[str, Any] = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "payload", json.loads(canonical_json(self.request)))

    def accounts_to_lock(self) -> list[AccountKey]:
        keys = list(self.lock) + [leg.account for leg in self.legs]
        return sorted({k for k in keys if k.kind != HOUSE})


def payload_hash(payload: Mapping[str, Any]) -> str:
    return hashlib.sha256(canonical_json(payload).encode()).hexdigest()


def ledger_post(posting: Posting) -> LedgerTransaction:
    """Post once (see the module docstring); the only function that writes ledger rows."""
    attempt = 1
    while True:
        try:
            return _post_once(posting)
        except IntegrityError:
            winner = _replayed(posting)  # the key was taken, maybe by a concurrent twin
            if winner is None:
                raise
            return winner
        except OperationalError as exc:
            if not may_retry(exc, attempt):
                raise
            attempt += 1


def may_retry(exc: OperationalError, attempt: int) -> bool:
    """Whether a whole transaction that failed with ``exc`` on its ``attempt``-th try may run
    again: a transient failure (deadlock, serialization, lock timeout, SQLite busy), fewer than
    MAX_ATTEMPTS tries, and no caller's transaction around it (a failed statement aborted the
    caller's work). Sleeps the backoff (full jitter) before saying yes."""
    if _caller_owns_transaction() or not _transient(exc) or attempt >= MAX_ATTEMPTS:
        return False
    time.sleep(random.uniform(0, BACKOFF_SECONDS * 2**attempt))  # noqa: S311 - jitter, not secrets
    return True


def _caller_owns_transaction() -> bool:
    return bool(transaction.get_connection().in_atomic_block)


def _transient(exc: OperationalError) -> bool:
    sqlstate = getattr(exc.__cause__, "sqlstate", None)
    return sqlstate in TRANSIENT_SQLSTATES or "database is locked" in str(exc)


def _replayed(posting: Posting) -> LedgerTransaction | None:
    """The transaction already posted under this key; refuses a different request."""
    first = LedgerTransaction.objects.filter(idempotency_key=posting.idempotency_key).first()
    if first is None:
        return None
    if first.payload_hash != payload_hash(posting.payload):
        raise IdempotencyConflict(key=posting.idempotency_key, field=_differing(first.payload, posting.payload))
    return first


def _differing(first: Mapping[str, Any], second: Mapping[str, Any]) -> str:
    """The request fields that differ: just ``kind`` when the key was used for another operation."""
    if first.get("kind") != second.get("kind"):
        return "kind"
    fields = sorted(set(first) | set(second))
    return ", ".join(f for f in fields if first.get(f) != second.get(f)) or "request"


@transaction.atomic
def _post_once(posting: Posting) -> LedgerTransaction:
    header = LedgerTransaction.objects.create(
        kind=posting.kind, idempotency_key=posting.idempotency_key, reference=posting.reference,
        actor_id=posting.actor_id, memo=posting.memo, payload=posting.payload,
        payload_hash=payload_hash(posting.payload), reverses_id=posting.reverses_id,
    )
    locked = _lock_accounts(posting.accounts_to_lock())
    legs = [leg for leg in _legs(posting, locked) if leg.amount != 0]
    _refuse_unbalanced(legs)
    changes = _refuse_overdraw(legs, locked)
    _write(header, legs, locked, changes)
    return header


def _legs(posting: Posting, locked: Mapping[AccountKey, Account]) -> Sequence[Leg]:
    if posting.build is None:
        return posting.legs
    return posting.build({key: account.balance for key, account in locked.items()})


def _refuse_unbalanced(legs: Sequence[Leg]) -> None:
    total = sum(leg.amount for leg in legs)
    if total != 0:
        raise UnbalancedTransaction(total=total)


def _lock_accounts(keys: Sequence[AccountKey]) -> dict[AccountKey, Account]:
    """Lock the accounts in ascending id order, creating the missing ones first."""
    if not keys:
        return {}
    locked = _select_for_update(keys)
    missing = [key for key in keys if key not in locked]
    if missing:
        Account.objects.bulk_create([key.new_account() for key in missing], ignore_conflicts=True)
        locked = _select_for_update(keys)
    return locked


def _select_for_update(keys: Sequence[AccountKey]) -> dict[AccountKey, Account]:
    wallets = [k.user_id for k in keys if k.kind == AccountKind.WALLET]
    condition = Q(kind=AccountKind.WALLET, user_id__in=wallets) if wallets else Q(pk__in=[])
    by_table: dict[str, list[int | None]] = {}
    for key in keys:
        if key.kind == AccountKind.TABLE:
            by_table.setdefault(key.name, []).append(key.user_id)
    for table_ref, users in by_table.items():
        condition |= Q(kind=AccountKind.TABLE, table_ref=table_ref, user_id__in=users)
    rows = Account.objects.select_for_update().filter(condition).order_by("id")
    return {AccountKey.of(account): account for account in rows}


def _refuse_overdraw(legs: Sequence[Leg], locked: Mapping[AccountKey, Account]) -> dict[AccountKey, int]:
    """The change of each locked account; raises InsufficientFunds before anything is written."""
    changes: dict[AccountKey, int] = {}
    for leg in legs:
        if leg.account.kind != HOUSE:
            changes[leg.account] = changes.get(leg.account, 0) + leg.amount
    for key, change in sorted(changes.items()):
        balance = locked[key].balance
        if balance + change < 0:
            raise InsufficientFunds(balance=balance, needs=-change, table_ref=key.name)
    return changes


def _write(
    header: LedgerTransaction, legs: Sequence[Leg], locked: Mapping[AccountKey, Account],
    changes: Mapping[AccountKey, int],
) -> None:
    """Insert the entries (with each account's running balance) and move the cached balances."""
    running = {key: account.balance for key, account in locked.items()}
    rows: list[Row] = []
    for leg in legs:
        if leg.account.kind == HOUSE:
            rows.append((None, leg.account.name, leg.amount, None))
        else:
            running[leg.account] += leg.amount
            rows.append((locked[leg.account].pk, "", leg.amount, running[leg.account]))
    deltas = {locked[key].pk: change for key, change in changes.items() if change}
    if rows:
        writer = _write_postgres if connection.vendor == "postgresql" else _write_orm
        writer(header.pk, rows, deltas)
    for key, change in changes.items():
        locked[key].balance += change


# Both writes in one statement: one round trip on the settlement path.
_POSTGRES_WRITE = """
WITH new_entries AS (
    INSERT INTO wallet_entry (transaction_id, account_id, house, amount, balance_after)
    SELECT %s, unnest(%s::bigint[]), unnest(%s::text[]), unnest(%s::bigint[]), unnest(%s::bigint[])
)
UPDATE wallet_account AS account SET balance = account.balance + change.delta
FROM unnest(%s::bigint[], %s::bigint[]) AS change(id, delta)
WHERE account.id = change.id
"""


def _write_postgres(transaction_id: int, rows: Sequence[Row], deltas: Mapping[int, int]) -> None:
    accounts, houses, amounts, after = (list(column) for column in zip(*rows, strict=True))
    with connection.cursor() as cursor:
        cursor.execute(
            _POSTGRES_WRITE, [transaction_id, accounts, houses, amounts, after, list(deltas), list(deltas.values())]
        )


def _write_orm(transaction_id: int, rows: Sequence[Row], deltas: Mapping[int, int]) -> None:
    Entry.objects.bulk_create(
        Entry(transaction_id=transaction_id, account_id=account, house=house, amount=amount, balance_after=after)
        for account, house, amount, after in rows
    )
    if deltas:
        change = Case(*(When(pk=pk, then=Value(d)) for pk, d in deltas.items()), output_field=BigIntegerField())
        Account.objects.filter(pk__in=deltas).update(balance=F("balance") + change)
