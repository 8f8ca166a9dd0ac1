"""Wallet services: the only way coins move. Keyword-only, one database transaction each.

Each service validates its arguments (nothing touched on a refusal), describes its legs and posts
them through :func:`wallet.posting.ledger_post`, which runs them in one database transaction (a
caller's, if one is open: on PostgreSQL two statements without a savepoint, unless the posting is
refused; see :mod:`wallet.posting`) and returns the :class:`LedgerTransaction`.
The same ``idempotency_key`` with the same request returns the first transaction; with a different
request it raises :class:`IdempotencyConflict`.

Accounts involved: ``issuance`` (the bank coins are granted from) → player wallets → table money
(escrow, one account per player and table) → back, with house accounts ``commission``,
``penalty`` and ``banker`` (house-banked games) credited or debited by settlements.
"""

from __future__ import annotations

from collections.abc import Mapping

from django.db import IntegrityError

from accounts.models import User
from wallet.errors import (
    AlreadyReversed,
    BelowMinimumBuyIn,
    InvalidPosting,
    TransactionNotFound,
    UnbalancedTransaction,
)
from wallet.models import (
    House,
    LedgerTransaction,
    TransactionKind,
    WelcomeGrant,
    daily_bonus_key,
    daily_bonus_reference,
    welcome_key,
)
from wallet.posting import AccountKey, Leg, Posting, ledger_post

ISSUANCE = AccountKey.house(House.ISSUANCE)
#: The reference of a welcome grant (the statement calls it "Welcome coins").
WELCOME_REFERENCE = "welcome"
# House accounts a settlement may credit (>= 0) or, for "banker", credit or debit.
SETTLEMENT_HOUSES = (House.COMMISSION, House.PENALTY, House.BANKER)


def _positive(amount: int, name: str = "amount") -> int:
    if isinstance(amount, bool) or not isinstance(amount, int) or amount <= 0:
        raise InvalidPosting(reason=f"{name} must be a positive integer number of minor units, got {amount!r}")
    return amount


def _actor_id(actor: User | None) -> int | None:
    return None if actor is None else actor.pk


def _key(idempotency_key: str) -> str:
    if not idempotency_key or len(idempotency_key) > 200:
        raise InvalidPosting(reason="an idempotency key of 1 to 200 characters is required")
    return idempotency_key


def _table(table_ref: str) -> str:
    if not table_ref or len(table_ref) > 64:
        raise InvalidPosting(reason="a table reference of 1 to 64 characters is required")
    return table_ref


def wallet_grant(
    *, user: User, amount: int, idempotency_key: str, actor: User | None, memo: str = "", reference: str = ""
) -> LedgerTransaction:
    """Issue new coins from the bank into the player's wallet."""
    wallet = AccountKey.wallet(user.pk)
    request = {"kind": TransactionKind.GRANT, "user": user.pk, "amount": _positive(amount), "memo": memo,
               "actor": _actor_id(actor), "reference": reference}
    return ledger_post(Posting(
        kind=TransactionKind.GRANT, idempotency_key=_key(idempotency_key), request=request,
        legs=(Leg(ISSUANCE, -amount), Leg(wallet, amount)), reference=reference, actor_id=_actor_id(actor), memo=memo,
    ))


def wallet_welcome(*, user: User) -> LedgerTransaction | None:
    """Give a new player the welcome coins staff set (``WelcomeGrant``), once: the key is the
    player, so a retried sign-up posts nothing more. None when the amount is 0 (switched off)."""
    amount = WelcomeGrant.current().amount
    if amount <= 0:
        return None
    return wallet_grant(user=user, amount=amount, idempotency_key=welcome_key(user.pk), actor=None,
                        reference=WELCOME_REFERENCE)


def wallet_daily_bonus(*, user: User, amount: int, day: str) -> LedgerTransaction:
    """Give the player the day's bonus coins from the bank (kind ``daily_bonus``), once per
    player and ``day`` (the ISO date of the platform's calendar day): the key is both, so a
    second claim that day replays the first. The reference names the player, so the
    welcome-coins signal finds a player's bonuses by an indexed equality."""
    if len(day) != 10:
        raise InvalidPosting(reason=f"a day is an ISO date (YYYY-MM-DD), got {day!r}")
    reference = daily_bonus_reference(user.pk)
    request = {"kind": TransactionKind.DAILY_BONUS, "user": user.pk, "amount": _positive(amount), "day": day}
    return ledger_post(Posting(
        kind=TransactionKind.DAILY_BONUS, idempotency_key=daily_bonus_key(user.pk, day), request=request,
        legs=(Leg(ISSUANCE, -amount), Leg(AccountKey.wallet(user.pk), amount)), reference=reference, actor_id=None,
    ))


def wallet_adjust(
    *, user: User, amount: int, reason: str, idempotency_key: str, actor: User | None, reference: str = ""
) -> LedgerTransaction:
    """Add (amount > 0) or take back (amount < 0) coins against the bank; ``reason`` becomes the memo."""
    if isinstance(amount, bool) or not isinstance(amount, int) or amount == 0:
        raise InvalidPosting(reason=f"an adjustment is a non-zero integer number of minor units, got {amount!r}")
    if not reason or not reason.strip():
        raise InvalidPosting(reason="an adjustment needs a reason")
    wallet = AccountKey.wallet(user.pk)
    request = {"kind": TransactionKind.ADJUSTMENT, "user": user.pk, "amount": amount, "reason": reason,
               "actor": _actor_id(actor), "reference": reference}
    return ledger_post(Posting(
        kind=TransactionKind.ADJUSTMENT, idempotency_key=_key(idempotency_key), request=request,
        legs=(Leg(ISSUANCE, -amount), Leg(wallet, amount)), reference=reference, actor_id=_actor_id(actor),
        memo=reason,
    ))


def wallet_buy_in(
    *, user: User, table_ref: str, amount: int, minimum: int, idempotency_key: str, actor: User | None = None
) -> LedgerTransaction:
    """Move coins from the wallet to the player's table money; ``minimum`` is the stake's minimum buy-in."""
    _positive(amount)
    if amount < minimum:
        raise BelowMinimumBuyIn(amount=amount, minimum=minimum)
    table = AccountKey.table(user.pk, _table(table_ref))
    request = {"kind": TransactionKind.BUY_IN, "user": user.pk, "table_ref": table_ref, "amount": amount,
               "minimum": minimum, "actor": _actor_id(actor)}
    return ledger_post(Posting(
        kind=TransactionKind.BUY_IN, idempotency_key=_key(idempotency_key), request=request,
        legs=(Leg(AccountKey.wallet(user.pk), -amount), Leg(table, amount)), reference=f"table:{table_ref}",
        actor_id=_actor_id(actor),
    ))


def wallet_top_up(
    *, user: User, table_ref: str, amount: int, idempotency_key: str, actor: User | None = None
) -> LedgerTransaction:
    """A buy-in between hands by a seated player: no minimum beyond one minor unit (kind ``buy_in``)."""
    return wallet_buy_in(
        user=user, table_ref=table_ref, amount=amount, minimum=1, idempotency_key=idempotency_key, actor=actor
    )


def wallet_cash_out(
    *, user: User, table_ref: str, amount: int | None = None, idempotency_key: str, actor: User | None = None,
    memo: str = "",
) -> LedgerTransaction:
    """Move table money back to the wallet: ``amount`` or, with None, all of it (possibly nothing).
    ``memo``: why, in the system's words (``wallet.presenters.CASH_OUT_MEMOS`` words it for the
    statement)."""
    if amount is not None:
        _positive(amount)
    table = AccountKey.table(user.pk, _table(table_ref))
    wallet = AccountKey.wallet(user.pk)

    def everything(balances: Mapping[AccountKey, int]) -> list[Leg]:
        return [Leg(table, -balances[table]), Leg(wallet, balances[table])]

    request = {"kind": TransactionKind.CASH_OUT, "user": user.pk, "table_ref": table_ref, "amount": amount,
               "actor": _actor_id(actor)}
    # A known amount is known legs (refused, if it must be, before anything is written); all of it
    # is whatever the locked balance holds, which no balance can refuse.
    legs = () if amount is None else (Leg(table, -amount), Leg(wallet, amount))
    return ledger_post(Posting(
        kind=TransactionKind.CASH_OUT, idempotency_key=_key(idempotency_key), request=request, legs=legs,
        build=everything if amount is None else None, lock=(table, wallet), reference=f"table:{table_ref}",
        actor_id=_actor_id(actor), memo=memo,
    ))


def _settlement_legs(table_ref: str, deltas: Mapping[int, int], house: Mapping[str, int]) -> list[Leg]:
    """Validated legs of a hand settlement; raises before any database access."""
    for name, amount in house.items():
        if name not in SETTLEMENT_HOUSES:
            raise InvalidPosting(reason=f"unknown house account {name!r} (use {', '.join(SETTLEMENT_HOUSES)})")
        if not isinstance(amount, int) or (amount < 0 and name != House.BANKER):
            raise InvalidPosting(reason=f"the house {name} amount must be a non-negative integer, got {amount!r}")
    for user_id, delta in deltas.items():
        if isinstance(delta, bool) or not isinstance(delta, int) or not isinstance(user_id, int):
            raise InvalidPosting(reason=f"deltas map user ids to integer minor units, got {user_id!r}: {delta!r}")
    total = sum(deltas.values()) + sum(house.values())
    if total != 0:
        raise UnbalancedTransaction(total=total)
    legs = [Leg(AccountKey.table(user_id, table_ref), delta) for user_id, delta in sorted(deltas.items())]
    return legs + [Leg(AccountKey.house(name), amount) for name, amount in sorted(house.items())]


def wallet_settle_hand(
    *, hand_ref: str, table_ref: str, deltas: Mapping[int, int], house: Mapping[str, int],
    idempotency_key: str, memo: str = "",
) -> LedgerTransaction:
    """Apply one hand's result to the seats' table money in one balanced transaction.

    ``deltas``: user id -> net change of that seat's table money; ``house``: e.g.
    ``{"commission": c, "penalty": p}`` credited to the house (``banker``, for house-banked
    tables, may be negative). Refused unless ``sum(deltas) + sum(house) == 0``.
    """
    legs = _settlement_legs(_table(table_ref), deltas, house)
    request = {"kind": TransactionKind.SETTLEMENT, "hand_ref": hand_ref, "table_ref": table_ref,
               "deltas": {str(u): d for u, d in deltas.items()}, "house": dict(house), "memo": memo}
    return ledger_post(Posting(
        kind=TransactionKind.SETTLEMENT, idempotency_key=_key(idempotency_key), request=request, legs=legs,
        reference=hand_ref, memo=memo,
    ))


def wallet_charge(
    *, user: User, table_ref: str, amount: int, kind: str, reference: str, idempotency_key: str,
    actor: User | None = None, memo: str = "",
) -> LedgerTransaction:
    """Charge a commission or penalty outside a hand settlement: table money -> that house account."""
    if kind not in (TransactionKind.COMMISSION, TransactionKind.PENALTY):
        raise InvalidPosting(reason=f"a charge is a commission or a penalty, not {kind!r}")
    table = AccountKey.table(user.pk, _table(table_ref))
    request = {"kind": kind, "user": user.pk, "table_ref": table_ref, "amount": _positive(amount),
               "reference": reference, "actor": _actor_id(actor), "memo": memo}
    return ledger_post(Posting(
        kind=kind, idempotency_key=_key(idempotency_key), request=request,
        legs=(Leg(table, -amount), Leg(AccountKey.house(kind), amount)), reference=reference,
        actor_id=_actor_id(actor), memo=memo,
    ))


def wallet_compensate(
    *, user: User, amount: int, dispute_ref: str, idempotency_key: str, actor: User | None, memo: str
) -> LedgerTransaction:
    """Pay a player for an upheld dispute, from the bank (kind ``dispute_compensation``)."""
    request = {"kind": TransactionKind.DISPUTE_COMPENSATION, "user": user.pk, "amount": _positive(amount),
               "dispute_ref": dispute_ref, "actor": _actor_id(actor), "memo": memo}
    return ledger_post(Posting(
        kind=TransactionKind.DISPUTE_COMPENSATION, idempotency_key=_key(idempotency_key), request=request,
        legs=(Leg(ISSUANCE, -amount), Leg(AccountKey.wallet(user.pk), amount)), reference=dispute_ref,
        actor_id=_actor_id(actor), memo=memo,
    ))


def wallet_reverse(
    *, transaction_id: int, idempotency_key: str, actor: User | None, reason: str
) -> LedgerTransaction:
    """Post a new transaction with every entry of ``transaction_id`` negated (never an edit).

    Refuses a second reversal (AlreadyReversed, also enforced by a unique column), reversing a
    reversal, and any reversal that would take a wallet or table balance below zero.
    """
    if not reason or not reason.strip():
        raise InvalidPosting(reason="a reversal needs a reason")
    original = LedgerTransaction.objects.filter(pk=transaction_id).first()
    if original is None:
        raise TransactionNotFound(transaction=transaction_id)
    if original.kind == TransactionKind.REVERSAL:
        raise InvalidPosting(reason="a reversal cannot be reversed; post a new transaction instead")
    entries = original.entries.select_related("account").order_by("id")
    legs = [Leg(AccountKey.of_entry(entry), -entry.amount) for entry in entries]
    request = {"kind": TransactionKind.REVERSAL, "transaction": transaction_id, "reason": reason,
               "actor": _actor_id(actor)}
    posting = Posting(
        kind=TransactionKind.REVERSAL, idempotency_key=_key(idempotency_key), request=request, legs=legs,
        reference=f"transaction:{transaction_id}", actor_id=_actor_id(actor), memo=reason, reverses_id=transaction_id,
    )
    try:
        return ledger_post(posting)
    except IntegrityError:
        if LedgerTransaction.objects.filter(reverses_id=transaction_id).exists():
            raise AlreadyReversed(transaction=transaction_id) from None
        raise
