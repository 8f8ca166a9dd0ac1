"""The ledger audit behind ``manage.py ledger_check``: recompute everything from the entries,
and find table money that no seat holds."""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field

from django.db import connection, transaction
from django.db.models import F, Q, Sum, Value
from django.db.models.functions import Coalesce

from wallet.models import Account, AccountKind, Entry, House, LedgerTransaction
from wallet.money import format_coins
from wallet.selectors import house_balances

PROBLEM_LIMIT = 20  # list at most this many rows per kind of discrepancy
GUARDS = {
    "postgresql": ("wallet_entry_append_only", "wallet_transaction_append_only", "wallet_entry_balanced"),
    "sqlite": ("wallet_entry_append_only", "wallet_transaction_append_only"),
}


#: Answers, for table refs with table money, which users hold a seat there now: ``{ref: {user
#: id, ...}}``, a ref left out when its table does not exist (any more).
SeatHolders = Callable[[Collection[str]], Mapping[str, Collection[int]]]


@dataclass(frozen=True)
class EscrowOwner:
    """An app that keeps seats' table money at the table refs starting with ``prefix``."""

    prefix: str
    holders: SeatHolders


#: Registered by the apps that seat players (the tables app, when it is ready); the wallet
#: itself knows nothing of tables or seats.
ESCROW_OWNERS: list[EscrowOwner] = []


def escrow_owner_register(*, prefix: str, holders: SeatHolders) -> None:
    """Let the audit ask ``holders`` who holds a seat at the table refs starting with ``prefix``."""
    owner = EscrowOwner(prefix=prefix, holders=holders)
    if owner not in ESCROW_OWNERS:
        ESCROW_OWNERS.append(owner)


def escrow_opened(*, table_ref: str) -> bool:
    """Whether anyone ever had table money at ``table_ref`` (accounts are never deleted)."""
    return Account.objects.filter(kind=AccountKind.TABLE, table_ref=table_ref).exists()


@dataclass
class LedgerReport:
    totals: dict[str, int] = field(default_factory=dict)
    counts: dict[str, int] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


def ledger_audit() -> LedgerReport:
    report = LedgerReport()
    with _snapshot():
        _check_transactions_balance(report)
        _check_cached_balances(report)
        _check_totals(report)
        _check_escrow_held(report)
        _check_guards(report)
        report.counts = {
            "transactions": LedgerTransaction.objects.count(),
            "entries": Entry.objects.count(),
            "accounts": Account.objects.count(),
        }
    return report


@contextmanager
def _snapshot() -> Iterator[None]:
    """Every query of the audit reads one snapshot, so postings committed while it runs (a
    player joining or leaving: table money and seat in one transaction) cannot look like a
    discrepancy. PostgreSQL: a read-only REPEATABLE READ transaction, unless the caller has a
    transaction open already; SQLite's WAL gives a transaction one snapshot anyway."""
    nested = connection.in_atomic_block
    with transaction.atomic():
        if connection.vendor == "postgresql" and not nested:
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
        yield


def _check_transactions_balance(report: LedgerReport) -> None:
    unbalanced = (
        Entry.objects.values("transaction_id").annotate(total=Sum("amount")).exclude(total=0).order_by("transaction_id")
    )
    for row in unbalanced[:PROBLEM_LIMIT]:
        report.problems.append(
            f"transaction {row['transaction_id']} does not balance: its entries sum to {format_coins(row['total'])}"
        )


def _check_cached_balances(report: LedgerReport) -> None:
    accounts = Account.objects.annotate(derived=Coalesce(Sum("entries__amount"), Value(0)))
    mismatched = accounts.exclude(balance=F("derived")).order_by("id")
    for account in mismatched[:PROBLEM_LIMIT]:
        report.problems.append(
            f"account {account.pk} ({account}) caches {format_coins(account.balance)} "
            f"but its entries sum to {format_coins(account.derived)}"
        )
    negative = accounts.filter(Q(balance__lt=0) | Q(derived__lt=0)).order_by("id")
    for account in negative[:PROBLEM_LIMIT]:
        report.problems.append(f"account {account.pk} ({account}) is negative: {format_coins(account.balance)}")


def _check_totals(report: LedgerReport) -> None:
    """Coins issued (minus the issuance balance) equal every other balance added up."""
    house = house_balances()
    cached = dict(Account.objects.values_list("kind").annotate(total=Sum("balance")).order_by())
    wallets, tables = int(cached.get(AccountKind.WALLET) or 0), int(cached.get(AccountKind.TABLE) or 0)
    issued = -house[House.ISSUANCE]
    held = wallets + tables + sum(v for k, v in house.items() if k != House.ISSUANCE)
    report.totals = {"issued": issued, "wallets": wallets, "table money": tables,
                     **{f"house {name}": amount for name, amount in house.items() if name != House.ISSUANCE}}
    if held != issued:
        report.problems.append(
            f"coins issued {format_coins(issued)} differ from the balances held {format_coins(held)}"
        )


def _check_escrow_held(report: LedgerReport) -> None:
    """Table money (a positive balance) whose owner holds no seat at that table, or at a table
    that no longer exists, is stranded: no service would ever cash it out."""
    for owner in ESCROW_OWNERS:
        funded = list(
            Account.objects.filter(kind=AccountKind.TABLE, table_ref__startswith=owner.prefix, balance__gt=0)
            .order_by("table_ref", "user_id").values_list("pk", "table_ref", "user_id", "balance")
        )
        if not funded:
            continue
        holders = owner.holders({ref for _pk, ref, _user, _balance in funded})
        stranded = [row for row in funded if row[2] not in holders.get(row[1], ())]
        if not stranded:
            continue
        shown = Account.objects.select_related("user").in_bulk([row[0] for row in stranded[:PROBLEM_LIMIT]])
        for pk, ref, user_id, balance in stranded[:PROBLEM_LIMIT]:
            where = "where they hold no seat" if ref in holders else "a table that no longer exists"
            report.problems.append(f"table money {format_coins(balance)} of user {user_id} ({shown[pk].user}) "
                                   f"is stranded at {ref}, {where}")
        total = report.totals.get("stranded table money", 0) + sum(row[3] for row in stranded)
        report.totals["stranded table money"] = total


def _check_guards(report: LedgerReport) -> None:
    expected = GUARDS.get(connection.vendor, ())
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("SELECT tgname FROM pg_trigger WHERE tgname LIKE 'wallet%' AND tgenabled <> 'D'")
        elif connection.vendor == "sqlite":
            cursor.execute("SELECT name FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'wallet%'")
        else:
            return
        present = {row[0] for row in cursor.fetchall()}
    for name in expected:
        if name not in present:
            report.problems.append(f"database guard {name} is missing or disabled")
