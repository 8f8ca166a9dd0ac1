"""The ledger audit behind ``manage.py ledger_check``: recompute everything from the entries."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db import connection
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
    _check_transactions_balance(report)
    _check_cached_balances(report)
    _check_totals(report)
    _check_guards(report)
    report.counts = {
        "transactions": LedgerTransaction.objects.count(),
        "entries": Entry.objects.count(),
        "accounts": Account.objects.count(),
    }
    return report


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
