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


def reference_hand_id(reference: str) -> int | None:
    """The hand id of a settlement's reference (``hand:9`` → 9): the id the hand's replay,
    exports and disputes name it by (docs/HAND_HISTORY.md); None for any other reference."""
    kind, _sep, value = reference.partition(":")
    return int(value) if kind == "hand" and value.isdigit() else None


def spreadsheet_safe(text: str) -> str:
    """Text a spreadsheet will not run as a formula (CSV injection)."""
    return f"'{text}" if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text
