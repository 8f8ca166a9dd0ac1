"""``manage.py ledger_check``: audit the whole ledger; exit status 1 on any discrepancy."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from wallet.audit import ledger_audit
from wallet.money import format_coins


class Command(BaseCommand):
    help = (
        "Verify that every transaction balances, every cached balance equals the sum of its entries, no balance "
        "is negative, the coins issued equal the coins held, all table money is held by a seat at an existing "
        "table, and the database guards are installed."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        report = ledger_audit()
        for name, amount in report.totals.items():
            self.stdout.write(f"{name:>18}: {format_coins(amount, grouping=True)}")
        for name, count in report.counts.items():
            self.stdout.write(f"{name:>18}: {count}")
        if not report.ok:
            for problem in report.problems:
                self.stderr.write(f"DISCREPANCY: {problem}")
            raise CommandError(f"ledger_check found {len(report.problems)} discrepancies")
        self.stdout.write(self.style.SUCCESS("ledger OK"))
