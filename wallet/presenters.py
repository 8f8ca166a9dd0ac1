"""How a statement row is described to a player (pages, API and CSV share it)."""

from __future__ import annotations

from django.utils.translation import gettext as _

from wallet.models import Account, AccountKind, Entry


def statement_account(entry: Entry) -> Account:
    """The player account of a statement row (a statement never lists house entries)."""
    if entry.account is None:
        raise ValueError(f"entry {entry.pk} is a house entry, not a statement row")
    return entry.account


def entry_account_label(entry: Entry) -> str:
    account = statement_account(entry)
    if account.kind == AccountKind.TABLE:
        return _("table money at %(table)s") % {"table": account.table_ref}
    return _("wallet")


def spreadsheet_safe(text: str) -> str:
    """Text a spreadsheet will not run as a formula (CSV injection)."""
    return f"'{text}" if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text
