"""Wallet errors, with messages a player can read.

``str(error)`` is English (logs, tests); :meth:`WalletError.localized` is the same message in the
active language: one sentence, which a page shows as it is. Amounts in messages are coins with
two decimals and thousands grouped, as the pages show coins (``5,000.00``). Each class has a stable
``code`` for clients (docs/PROTOCOL.md): ``insufficient_funds``, ``below_minimum_buy_in``, else
``wallet_refused``.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext, gettext_noop

from kernel.errors import AppError
from wallet.money import format_coins


class WalletError(AppError):
    """Base class: the posting was refused and nothing was written."""

    code = "wallet_refused"
    template = gettext_noop("the wallet refused this operation")

    def __init__(self, **params: Any) -> None:
        self.params = params
        super().__init__(self.template % params)

    def localized(self) -> str:
        return gettext(self.template) % self.params


class InsufficientFunds(WalletError):
    code = "insufficient_funds"
    template = gettext_noop("Not enough coins: your wallet holds %(balance)s, this needs %(needs)s.")
    table_template = gettext_noop(
        "Not enough table money at table %(table)s: it holds %(balance)s, this needs %(needs)s."
    )

    def __init__(self, *, balance: int, needs: int, table_ref: str = "") -> None:
        if table_ref:
            self.template = self.table_template
        super().__init__(balance=format_coins(balance, grouping=True), needs=format_coins(needs, grouping=True),
                         table=table_ref.rpartition(":")[2] or table_ref)  # ``table:3`` → 3


class BelowMinimumBuyIn(WalletError):
    code = "below_minimum_buy_in"
    template = gettext_noop("The buy-in of %(amount)s is below this table's minimum of %(minimum)s.")

    def __init__(self, *, amount: int, minimum: int) -> None:
        super().__init__(amount=format_coins(amount, grouping=True), minimum=format_coins(minimum, grouping=True))


class IdempotencyConflict(WalletError):
    template = gettext_noop("the request key %(key)s was already used with a different %(field)s")

    def __init__(self, *, key: str, field: str) -> None:
        self.field = field
        super().__init__(key=key, field=field)


class UnbalancedTransaction(WalletError):
    template = gettext_noop("the postings do not balance: they sum to %(total)s instead of 0.00")

    def __init__(self, *, total: int) -> None:
        super().__init__(total=format_coins(total))


class AlreadyReversed(WalletError):
    template = gettext_noop("transaction %(transaction)s has already been reversed")

    def __init__(self, *, transaction: int) -> None:
        super().__init__(transaction=transaction)


class InvalidPosting(WalletError):
    """Arguments a caller should never send (zero or negative amounts, unknown house accounts...)."""

    template = gettext_noop("invalid posting: %(reason)s")

    def __init__(self, *, reason: str) -> None:
        super().__init__(reason=reason)


class TransactionNotFound(WalletError):
    template = gettext_noop("transaction %(transaction)s does not exist")

    def __init__(self, *, transaction: int) -> None:
        super().__init__(transaction=transaction)
