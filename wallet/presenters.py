"""How a statement row is described to a player, in the player's language (pages, API and CSV
share it): what happened ("Buy-in at table 3", "Hand result at table 3", "Welcome coins"), which
account, and the memo a person wrote. Machine references (``table:table:3``, ``hand:4``) stay in
the API's and the CSV's own columns; this module is the one place that words them."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from wallet.models import Account, AccountKind, Entry, LedgerTransaction, TransactionKind

#: References of grants the system makes (wallet.services.WELCOME_REFERENCE).
GRANT_REFERENCES = {"welcome": gettext_noop("Welcome coins")}
#: A settlement's house lines (docs/WALLET.md) as players read them.
HOUSE_LINES = {"commission": gettext_noop("Commission"), "penalty": gettext_noop("Penalty to the house"),
               "banker": gettext_noop("House bank")}
#: Kinds that happen at a table, worded with its number; kinds worded alike for everyone.
AT_TABLE: dict[str, str] = {
    TransactionKind.BUY_IN: gettext_noop("Buy-in at table %(table)s"),
    TransactionKind.CASH_OUT: gettext_noop("Cash-out from table %(table)s"),
    TransactionKind.SETTLEMENT: gettext_noop("Hand result at table %(table)s"),
    TransactionKind.COMMISSION: gettext_noop("Commission at table %(table)s"),
    TransactionKind.PENALTY: gettext_noop("Penalty at table %(table)s"),
}
#: The memo of the cash-out of a seat stood up because its player was away (or sat out too long).
AWAY_MEMO = "away"
#: Cash-outs the system made for a reason the statement names (its memo).
CASH_OUT_MEMOS: dict[str, str] = {
    AWAY_MEMO: gettext_noop("Stood up (away): cash-out from table %(table)s"),
}
FIXED: dict[str, str] = {
    TransactionKind.ADJUSTMENT: gettext_noop("Adjustment by staff"),
    TransactionKind.DISPUTE_COMPENSATION: gettext_noop("Dispute compensation"),
    TransactionKind.DAILY_BONUS: gettext_noop("Daily bonus"),
}
#: Kinds whose memo is a person's words (a staff member's reason); other memos are the system's.
PERSONAL_MEMO_KINDS = (TransactionKind.GRANT, TransactionKind.ADJUSTMENT, TransactionKind.DISPUTE_COMPENSATION)


def statement_account(entry: Entry) -> Account:
    """The player account of a statement row (a statement never lists house entries)."""
    if entry.account is None:
        raise ValueError(f"entry {entry.pk} is a house entry, not a statement row")
    return entry.account


def table_number(table_ref: str) -> str:
    """The table's number in a wallet reference: ``table:3`` → ``3`` (the tables app keys its
    escrow accounts so; the wallet knows nothing else of tables)."""
    return table_ref.rpartition(":")[2] or table_ref


def table_money_label(table_ref: str) -> str:
    return _("Table money, table %(table)s") % {"table": table_number(table_ref)}


def entry_account_label(entry: Entry) -> str:
    account = statement_account(entry)
    return table_money_label(account.table_ref) if account.kind == AccountKind.TABLE else _("Wallet")


def house_line_label(name: str) -> str:
    label = HOUSE_LINES.get(name)
    return _(label) if label else name


def transaction_label(txn: LedgerTransaction, table_ref: str = "") -> str:
    """What a transaction was, for the player whose row it is (``table_ref``: the row's table
    account, or the table its reference names)."""
    reference, kind = txn.reference, txn.kind
    if kind == TransactionKind.GRANT:
        label = GRANT_REFERENCES.get(reference)
        return _(label) if label else _("Coins granted by staff") if txn.actor_id else _("Coins granted")
    if kind in AT_TABLE:
        words = CASH_OUT_MEMOS.get(txn.memo, AT_TABLE[kind]) if kind == TransactionKind.CASH_OUT else AT_TABLE[kind]
        return _(words) % {"table": table_number(table_ref or reference.removeprefix("table:"))}
    if kind in FIXED:
        return _(FIXED[kind])
    if kind == TransactionKind.REVERSAL:
        return _("Reversal of transaction %(id)s") % {"id": txn.reverses_id}
    return str(TransactionKind(kind).label) if kind in TransactionKind.values else kind


def entry_label(entry: Entry) -> str:
    """The statement row's description: its transaction, worded for the row's account."""
    return transaction_label(entry.transaction, statement_account(entry).table_ref)


def entry_memo(entry: Entry) -> str:
    """The memo a person wrote (a staff member's reason), or "" for the system's own memos."""
    txn = entry.transaction
    return txn.memo if txn.kind in PERSONAL_MEMO_KINDS and txn.actor_id else ""


def reference_hand_id(reference: str) -> int | None:
    """The hand id of a settlement's reference (``hand:9`` → 9): the id the hand's replay,
    exports and disputes name it by (docs/HAND_HISTORY.md); None for any other reference."""
    kind, _sep, value = reference.partition(":")
    return int(value) if kind == "hand" and value.isdigit() else None


def spreadsheet_safe(text: str) -> str:
    """Text a spreadsheet will not run as a formula (CSV injection)."""
    return f"'{text}" if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text
