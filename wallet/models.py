"""The double-entry coin ledger: accounts, transactions and their append-only entries.

Amounts are integer minor units (1 coin = 100). Rows are written only by :mod:`wallet.services`
(through :func:`wallet.posting.ledger_post`); see docs/WALLET.md for the invariants and where the
database enforces each one.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class AccountKind(models.TextChoices):
    WALLET = "wallet", _("wallet")
    TABLE = "table", _("table money")


class House(models.TextChoices):
    """House accounts: no rows, only a name on their entries. Their balance is the sum of those
    entries, so postings never lock, update or (through a foreign key) share-lock a house row."""

    ISSUANCE = "issuance", _("issuance (the bank coins are granted from)")
    COMMISSION = "commission", _("commission")
    PENALTY = "penalty", _("penalties")
    BANKER = "banker", _("house-banked games")


class TransactionKind(models.TextChoices):
    GRANT = "grant", _("grant")
    ADJUSTMENT = "adjustment", _("adjustment")
    BUY_IN = "buy_in", _("buy-in")
    CASH_OUT = "cash_out", _("cash-out")
    SETTLEMENT = "settlement", _("settlement")
    COMMISSION = "commission", _("commission")
    PENALTY = "penalty", _("penalty")
    DISPUTE_COMPENSATION = "dispute_compensation", _("dispute compensation")
    DAILY_BONUS = "daily_bonus", _("daily bonus")
    REVERSAL = "reversal", _("reversal")


class Account(models.Model):
    """A player's wallet, or a seat's table money (escrow) at one table."""

    kind = models.CharField(_("kind"), max_length=10, choices=AccountKind.choices)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="wallet_accounts", verbose_name=_("user"),
    )
    table_ref = models.CharField(_("table"), max_length=64, blank=True, default="")
    # Cached balance, changed under the row lock in the same database transaction as the entries.
    balance = models.BigIntegerField(_("balance"), default=0)
    created_at = models.DateTimeField(_("created"), default=timezone.now)

    class Meta:
        verbose_name = _("account")
        verbose_name_plural = _("accounts")
        permissions = [("post_adjustment", "Can grant and adjust coins")]
        constraints = [
            models.CheckConstraint(condition=Q(balance__gte=0), name="wallet_account_balance_not_negative"),
            models.CheckConstraint(
                condition=Q(kind=AccountKind.WALLET, table_ref="") | (Q(kind=AccountKind.TABLE) & ~Q(table_ref="")),
                name="wallet_account_shape",
            ),
            models.UniqueConstraint(
                fields=["user"], condition=Q(kind=AccountKind.WALLET), name="wallet_one_wallet_per_user"
            ),
            models.UniqueConstraint(
                fields=["user", "table_ref"], condition=Q(kind=AccountKind.TABLE), name="wallet_one_seat_per_table"
            ),
        ]

    def __str__(self) -> str:
        if self.kind == AccountKind.TABLE:
            return f"table:{self.table_ref}:{self.user_id}"
        return f"wallet:{self.user_id}"


class LedgerTransaction(models.Model):
    """One balanced posting. Never updated or deleted: corrections are new reversing transactions."""

    kind = models.CharField(_("kind"), max_length=24, choices=TransactionKind.choices)
    idempotency_key = models.CharField(_("idempotency key"), max_length=200, unique=True)
    reference = models.CharField(_("reference"), max_length=200, blank=True, default="", db_index=True)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+",
        verbose_name=_("actor"),
    )
    memo = models.TextField(_("memo"), blank=True, default="")
    # The request as posted (canonical JSON) and its SHA-256: a replayed key is compared with it.
    payload = models.JSONField(_("payload"))
    payload_hash = models.CharField(_("payload hash"), max_length=64)
    reverses = models.OneToOneField(
        "self", on_delete=models.PROTECT, null=True, blank=True, related_name="reversed_by",
        verbose_name=_("reverses"),
    )
    created_at = models.DateTimeField(_("created"), default=timezone.now, db_index=True)

    #: Not stored: set by ``wallet.posting.ledger_post`` on the transaction it returns, True when
    #: the idempotency key replayed one posted before (nothing was written this time).
    replayed = False

    class Meta:
        verbose_name = _("ledger transaction")
        verbose_name_plural = _("ledger transactions")
        constraints = [
            models.CheckConstraint(
                condition=Q(kind__in=TransactionKind.values), name="wallet_transaction_kind_known"
            ),
            models.CheckConstraint(
                condition=Q(kind=TransactionKind.REVERSAL, reverses__isnull=False)
                | (~Q(kind=TransactionKind.REVERSAL) & Q(reverses__isnull=True)),
                name="wallet_reversal_names_its_original",
            ),
        ]

    def __str__(self) -> str:
        return f"#{self.pk} {self.kind} {self.idempotency_key}"


class Entry(models.Model):
    """One leg of a transaction: ``amount`` is added to a player account or to a house account
    (negative takes coins out). Exactly one of ``account`` and ``house`` is set."""

    transaction = models.ForeignKey(
        LedgerTransaction, on_delete=models.PROTECT, related_name="entries", verbose_name=_("transaction")
    )
    account = models.ForeignKey(
        Account, on_delete=models.PROTECT, null=True, blank=True, related_name="entries", verbose_name=_("account"),
        db_index=False,  # covered by wallet_entry_account_id
    )
    house = models.CharField(_("house account"), max_length=16, blank=True, default="", choices=House.choices)
    amount = models.BigIntegerField(_("amount"))
    # The player account's balance after this entry (null on house entries).
    balance_after = models.BigIntegerField(_("balance after"), null=True, blank=True)

    class Meta:
        verbose_name = _("entry")
        verbose_name_plural = _("entries")
        indexes = [
            models.Index(fields=["account", "id"], name="wallet_entry_account_id"),
            models.Index(fields=["house", "id"], name="wallet_entry_house_id", condition=~Q(house="")),
            # The house dashboard's figures (every house line of the hands of a span of transaction
            # ids): an index-only scan in transaction order.
            models.Index(fields=["transaction"], name="wallet_entry_house_lines", include=["house", "amount"],
                         condition=~Q(house="")),
        ]
        constraints = [
            models.CheckConstraint(condition=~Q(amount=0), name="wallet_entry_amount_not_zero"),
            models.CheckConstraint(
                condition=Q(account__isnull=False, house="", balance_after__isnull=False)
                | Q(account__isnull=True, house__in=House.values, balance_after__isnull=True),
                name="wallet_entry_account_or_house",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.account_id or self.house} {self.amount:+d}"


#: 3,000.00 coins: the minimum buy-in of the lowest stake level of every game as shipped (三人十三支's).
WELCOME_COINS_DEFAULT = 300_000


#: The idempotency key of a player's welcome grant is this and the player's id: one per player.
WELCOME_KEY_PREFIX = "welcome:"


def welcome_key(user_id: int) -> str:
    return f"{WELCOME_KEY_PREFIX}{user_id}"


#: A daily bonus's reference is this and the player's id (indexed: the welcome-coins signal
#: looks a player's bonuses up by it); its idempotency key adds the day, one per player and day.
DAILY_BONUS_PREFIX = "daily_bonus:"


def daily_bonus_reference(user_id: int) -> str:
    return f"{DAILY_BONUS_PREFIX}{user_id}"


def daily_bonus_key(user_id: int, day: str) -> str:
    return f"{DAILY_BONUS_PREFIX}{user_id}:{day}"


class WelcomeGrant(models.Model):
    """The coins every new player is given at sign-up (one row, edited by staff in admin; 0
    gives nothing). Posted by :func:`wallet.services.wallet_welcome` as a ``grant``."""

    amount = models.PositiveBigIntegerField(
        _("welcome coins (minor units)"), default=WELCOME_COINS_DEFAULT,
        help_text=_("Given to every new player at sign-up, in minor units (100 = 1.00 coin); 0 gives nothing."),
    )
    updated_at = models.DateTimeField(_("changed"), auto_now=True)

    class Meta:
        verbose_name = _("welcome coins")
        verbose_name_plural = _("welcome coins")
        constraints = [models.CheckConstraint(condition=Q(id=1), name="wallet_welcome_grant_one_row")]

    def __str__(self) -> str:
        return str(_("Welcome coins"))

    @classmethod
    def current(cls) -> WelcomeGrant:
        """The one row, created with the default amount on first use."""
        row, _created = cls.objects.get_or_create(pk=1)
        return row
