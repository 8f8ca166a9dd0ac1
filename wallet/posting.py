"""The one writer of ledger rows: post a balanced set of legs, once per idempotency key.

Every service in :mod:`wallet.services` describes its posting as a :class:`Posting` and hands it
to :func:`ledger_post`, which

1. inserts the transaction header first: its unique idempotency key makes a concurrent twin wait
   here, before it holds any account lock, and find the first's transaction once that commits;
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

On PostgreSQL steps 1-2 are one statement (:data:`_CLAIM`), step 4 another, with no savepoint in
a caller's transaction: the header goes in ``ON CONFLICT (idempotency_key) DO NOTHING`` only when
an unlocked read found no account going below zero, so a posting to be refused writes nothing and
takes the ORM's steps (in a savepoint), which raise the exact refusal. Only a posting taking the funds
between that read and the lock can still refuse one after its header: the innermost ``atomic``
block (the caller's, inside one) is then marked for rollback too. Reversals and SQLite always take
the ORM's steps.
"""

from __future__ import annotations

import hashlib
import json
import random
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from functools import lru_cache
from typing import Any, NamedTuple

from django.db import IntegrityError, OperationalError, connection, transaction
from django.db.models import BigIntegerField, Case, F, Q, Value, When
from django.utils import timezone

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


class Held(NamedTuple):  # a locked wallet or table account
    id: int
    balance: int


Row = tuple[int | None, str, int, int | None]  # an entry: (account id or None, house or "", amount, balance after)
LegBuilder = Callable[[Mapping[AccountKey, int]], Sequence[Leg]]
Claimed = tuple[int | None, bool, bool, dict[AccountKey, Held]]  # header id, gate open, key taken, accounts


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
    payload: dict[str, Any] = field(init=False)  # the request as a JSON reader gets it back
    payload_text: str = field(init=False, repr=False)  # ... as canonical JSON: what is stored and hashed

    def __post_init__(self) -> None:
        object.__setattr__(self, "payload", json.loads(canonical_json(self.request)))
        object.__setattr__(self, "payload_text", canonical_json(self.payload))

    @property
    def payload_hash(self) -> str:
        return hashlib.sha256(self.payload_text.encode()).hexdigest()

    def accounts_to_lock(self) -> list[AccountKey]:
        keys = list(self.lock) + [leg.account for leg in self.legs]
        return sorted({k for k in keys if k.kind != HOUSE})


def ledger_post(posting: Posting) -> LedgerTransaction:
    """Post once (see the module docstring); the only function that writes ledger rows."""
    attempt = 1
    while True:
        try:
            return _post_once(posting)
        except IntegrityError:
            if connection.in_atomic_block and connection.needs_rollback:
                raise  # failed inside the caller's transaction, which must roll back now
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
    return getattr(exc.__cause__, "sqlstate", None) in TRANSIENT_SQLSTATES or "database is locked" in str(exc)


def _replayed(posting: Posting) -> LedgerTransaction | None:
    """The transaction already posted under this key; refuses a different request."""
    first = LedgerTransaction.objects.filter(idempotency_key=posting.idempotency_key).first()
    if first is None:
        return None
    if first.payload_hash != posting.payload_hash:
        raise IdempotencyConflict(key=posting.idempotency_key, field=_differing(first.payload, posting.payload))
    first.replayed = True
    return first


def _differing(first: Mapping[str, Any], second: Mapping[str, Any]) -> str:
    """The request fields that differ: just ``kind`` when the key was used for another operation."""
    if first.get("kind") != second.get("kind"):
        return "kind"
    fields = sorted(set(first) | set(second))
    return ", ".join(f for f in fields if first.get(f) != second.get(f)) or "request"


def _post_once(posting: Posting) -> LedgerTransaction:
    """One attempt, in a transaction of its own unless the caller has one."""
    if connection.vendor != "postgresql" or posting.reverses_id is not None:
        with transaction.atomic():  # a savepoint inside the caller's transaction
            return _orm_steps(posting)
    if _caller_owns_transaction():
        return _post_sql(posting, inside_caller=True)
    with transaction.atomic():
        return _post_sql(posting, inside_caller=False)


def _orm_steps(posting: Posting) -> LedgerTransaction:
    header = LedgerTransaction.objects.create(
        kind=posting.kind, idempotency_key=posting.idempotency_key, reference=posting.reference,
        actor_id=posting.actor_id, memo=posting.memo, payload=posting.payload,
        payload_hash=posting.payload_hash, reverses_id=posting.reverses_id,
    )
    rows, deltas = _entries(posting, _lock_accounts(posting.accounts_to_lock()))
    if rows:
        (_write_postgres if connection.vendor == "postgresql" else _write_orm)(header.pk, rows, deltas)
    return header


def _post_sql(posting: Posting, *, inside_caller: bool) -> LedgerTransaction:
    """Two statements; the ORM's steps (a savepoint in the caller's) when nothing was written."""
    if posting.build is None:
        _refuse_unbalanced([leg for leg in posting.legs if leg.amount != 0])  # before anything is written
    keys, created_at = posting.accounts_to_lock(), timezone.now()
    with transaction.mark_for_rollback_on_error():  # a failed statement: the innermost block rolls back
        header_id, opened, taken, held = _claim(posting, keys, created_at)
    if header_id is None:
        if (opened or taken) and (winner := _replayed(posting)) is not None:
            return winner  # the key was taken (if opened: while the header waited for it)
        with transaction.atomic(savepoint=inside_caller):
            return _orm_steps(posting)
    with transaction.mark_for_rollback_on_error():  # a refusal now (only a race) rolls back the innermost block
        if len(held) < len(keys):  # created meanwhile by a concurrent posting: lock it now, as the ORM does
            held = _select_for_update(keys)
        rows, deltas = _entries(posting, held)
        if rows:
            _write_postgres(header_id, rows, deltas)
    values = {"id": header_id, "kind": posting.kind, "idempotency_key": posting.idempotency_key,
              "reference": posting.reference, "actor_id": posting.actor_id, "memo": posting.memo,
              "payload": posting.payload, "payload_hash": posting.payload_hash, "reverses_id": None,
              "created_at": created_at}  # the header as ``objects.create`` returns it
    return LedgerTransaction.from_db(connection.alias, _HEADER_FIELDS, [values[f] for f in _HEADER_FIELDS])


_HEADER_FIELDS = [f.attname for f in LedgerTransaction._meta.concrete_fields]

# Steps 1-2. ``account``: the accounts, read unlocked; ``gate``: none (a missing one holds 0) goes
# below zero by its ``wanted`` change. Only then is the header inserted, and only a header inserted
# locks the accounts (by id, ascending), then creates the missing ones: a twin waits on the key first.
_CLAIM = """
WITH account AS (
    SELECT id, kind, user_id, table_ref, balance FROM wallet_account WHERE {accounts}
), wanted AS (
    SELECT * FROM unnest(%s::text[], %s::bigint[], %s::text[], %s::bigint[]) AS w (kind, user_id, table_ref, change)
), gate AS (
    SELECT NOT EXISTS (SELECT FROM wanted LEFT JOIN account USING (kind, user_id, table_ref)
                       WHERE coalesce(account.balance, 0) + wanted.change < 0) AS open
), header AS (
    INSERT INTO wallet_ledgertransaction
        (kind, idempotency_key, reference, actor_id, memo, payload, payload_hash, reverses_id, created_at)
    SELECT %s::varchar, %s::varchar, %s::varchar, %s::bigint, %s::text, %s::jsonb, %s::varchar, NULL,
        %s::timestamptz FROM gate WHERE gate.open
    ON CONFLICT (idempotency_key) DO NOTHING RETURNING id
), locked AS (
    SELECT id, kind, user_id, table_ref, balance FROM wallet_account
    WHERE id IN (SELECT id FROM account) AND EXISTS (SELECT FROM header) ORDER BY id FOR UPDATE
), created AS (
    INSERT INTO wallet_account (kind, user_id, table_ref, balance, created_at)
    SELECT kind, user_id, table_ref, 0, %s::timestamptz FROM wanted
    WHERE NOT EXISTS (SELECT FROM account WHERE (account.kind, account.user_id, account.table_ref)
                                              = (wanted.kind, wanted.user_id, wanted.table_ref))
        AND EXISTS (SELECT FROM header) AND (SELECT count(*) FROM locked) >= 0  -- after the locks
    ON CONFLICT DO NOTHING RETURNING id, kind, user_id, table_ref, balance
)
SELECT (SELECT id FROM header), (SELECT open FROM gate),
    EXISTS (SELECT FROM wallet_ledgertransaction WHERE idempotency_key = %s::varchar),
    held.id, held.kind, held.user_id, held.table_ref, held.balance
FROM (VALUES (1)) AS one (x) LEFT JOIN (SELECT * FROM locked UNION ALL SELECT * FROM created) AS held ON true
"""


@lru_cache(maxsize=32)
def _claim_sql(wallets: bool, tables: int) -> str:
    """Each kind named as a constant: the partial unique indexes serve the accounts' read."""
    terms = ["(kind = 'wallet' AND user_id = ANY(%s::bigint[]))"] if wallets else []
    terms += ["(kind = 'table' AND table_ref = %s::varchar AND user_id = ANY(%s::bigint[]))"] * tables
    return _CLAIM.format(accounts=" OR ".join(terms) or "false")


def _claim(posting: Posting, keys: Sequence[AccountKey], created_at: datetime) -> Claimed:
    """Steps 1-2: the new header's id (None: nothing written), whether the accounts' read let it
    be written, whether the key was taken before, and the accounts locked or created."""
    wallets, by_table = _by_kind(keys)
    params: list[Any] = [_array(wallets)] if wallets else []
    for table_ref, users in by_table.items():
        params += [table_ref, _array(users)]
    changes = _changes(posting.legs)
    params += [_array(k.kind for k in keys), _array(k.user_id for k in keys), _array(k.name for k in keys),
               _array(changes.get(k, 0) for k in keys), posting.kind, posting.idempotency_key, posting.reference,
               posting.actor_id, posting.memo, posting.payload_text, posting.payload_hash, created_at, created_at,
               posting.idempotency_key]
    with connection.cursor() as cursor:
        cursor.execute(_claim_sql(bool(wallets), len(by_table)), params)
        rows = cursor.fetchall()
    held = {AccountKey(kind, user, ref): Held(pk, balance) for *_h, pk, kind, user, ref, balance in rows if pk}
    return rows[0][0], rows[0][1], rows[0][2], held


def _changes(legs: Sequence[Leg]) -> dict[AccountKey, int]:  # of each wallet or table account
    changes: dict[AccountKey, int] = {}
    for leg in legs:
        if leg.account.kind != HOUSE:
            changes[leg.account] = changes.get(leg.account, 0) + leg.amount
    return changes


def _entries(posting: Posting, held: Mapping[AccountKey, Held]) -> tuple[list[Row], dict[int, int]]:
    """Step 3: the entries to insert and the change of each account id, or a refusal."""
    built = posting.legs if posting.build is None else posting.build({k: a.balance for k, a in held.items()})
    legs = [leg for leg in built if leg.amount != 0]
    _refuse_unbalanced(legs)
    changes = _changes(legs)
    for key, change in sorted(changes.items()):
        if held[key].balance + change < 0:
            raise InsufficientFunds(balance=held[key].balance, needs=-change, table_ref=key.name)
    running = {key: account.balance for key, account in held.items()}
    rows: list[Row] = []
    for leg in legs:
        if leg.account.kind == HOUSE:
            rows.append((None, leg.account.name, leg.amount, None))
        else:
            running[leg.account] += leg.amount
            rows.append((held[leg.account].id, "", leg.amount, running[leg.account]))
    return rows, {held[key].id: change for key, change in changes.items() if change}


def _refuse_unbalanced(legs: Sequence[Leg]) -> None:
    if (total := sum(leg.amount for leg in legs)) != 0:
        raise UnbalancedTransaction(total=total)


def _lock_accounts(keys: Sequence[AccountKey]) -> dict[AccountKey, Held]:
    """Lock the accounts in ascending id order, creating the missing ones first."""
    locked = _select_for_update(keys)
    missing = [key for key in keys if key not in locked]
    if missing:
        Account.objects.bulk_create([key.new_account() for key in missing], ignore_conflicts=True)
        locked = _select_for_update(keys)
    return locked


def _select_for_update(keys: Sequence[AccountKey]) -> dict[AccountKey, Held]:
    wallets, by_table = _by_kind(keys)
    condition = Q(kind=AccountKind.WALLET, user_id__in=wallets) if wallets else Q(pk__in=[])
    for table_ref, users in by_table.items():
        condition |= Q(kind=AccountKind.TABLE, table_ref=table_ref, user_id__in=users)
    rows = Account.objects.select_for_update().filter(condition).order_by("id")
    return {AccountKey.of(account): Held(account.pk, account.balance) for account in rows}


def _by_kind(keys: Sequence[AccountKey]) -> tuple[list[int | None], dict[str, list[int | None]]]:  # users
    wallets = [k.user_id for k in keys if k.kind == AccountKind.WALLET]
    by_table: dict[str, list[int | None]] = {}
    for key in keys:
        if key.kind == AccountKind.TABLE:
            by_table.setdefault(key.name, []).append(key.user_id)
    return wallets, by_table


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
    columns = [_array(column) for column in zip(*rows, strict=True)]
    with connection.cursor() as cursor:
        cursor.execute(_POSTGRES_WRITE, [transaction_id, *columns, _array(deltas), _array(deltas.values())])


def _array(values: Iterable[int | str | None]) -> str:
    """An array literal (``{1,NULL,"a b"}``) cast in the statement: cheaper than adapting a list."""
    return "{" + ",".join("NULL" if v is None else str(v) if isinstance(v, int) else _quoted(v) for v in values) + "}"


def _quoted(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _write_orm(transaction_id: int, rows: Sequence[Row], deltas: Mapping[int, int]) -> None:
    Entry.objects.bulk_create(
        Entry(transaction_id=transaction_id, account_id=account, house=house, amount=amount, balance_after=after)
        for account, house, amount, after in rows
    )
    if deltas:
        change = Case(*(When(pk=pk, then=Value(d)) for pk, d in deltas.items()), output_field=BigIntegerField())
        Account.objects.filter(pk__in=deltas).update(balance=F("balance") + change)
