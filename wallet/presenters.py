"""How a statement row is described to a player (pages, API and CSV share it)."""

from __future__ import annotations

from django.utils.translation import gettext as _

from wallet.models import AccountKind, Entry


def entry_account_label(entry: Entry) -> str:
    if entry.account.kind == AccountKind.TABLE:
        return _("table money at %(table)s") % {"table": entry.account.table_ref}
    return _("wallet")


def spreadsheet_safe(text: str) -> str:
    """Text a spreadsheet will not run as a formula (CSV injection)."""
    return f"'{text}" if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text
