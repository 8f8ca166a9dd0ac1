"""Writes of the daily bonus: a claim (docs/WALLET.md "Daily bonus")."""

from __future__ import annotations

import datetime as dt

from django.utils import timezone

from accounts.models import User
from rewards.errors import BonusRefused
from rewards.selectors import BonusStatus, daily_bonus_status
from wallet.errors import IdempotencyConflict
from wallet.models import LedgerTransaction
from wallet.services import wallet_daily_bonus


def daily_bonus_claim(*, user: User, now: dt.datetime | None = None) -> LedgerTransaction:
    """Give ``user`` the daily bonus, or refuse with why (:class:`BonusRefused`, its code the
    reason of ``rewards.selectors.REFUSALS``), posting nothing.

    1. The status is read (``daily_bonus_status``): a refusal says why, and when next.
    2. The bonus is posted from the bank with the key of the player and the platform day, so a
       second claim that day, however it races the first, posts nothing: the ledger's unique key
       answers it with the first transaction (or a conflict, had staff changed the amount
       between), and the player is told they have claimed it.
    """
    now = now or timezone.now()
    status = daily_bonus_status(user=user, now=now)
    if not status.eligible:
        raise BonusRefused(status.message(), code=status.reason)
    try:
        txn = wallet_daily_bonus(user=user, amount=status.amount, day=status.day.isoformat())
    except IdempotencyConflict:
        txn = None
    if txn is None or txn.replayed:
        claimed = BonusStatus(amount=status.amount, floor=status.floor, day=status.day, next_at=status.next_at,
                              reason="claimed")
        raise BonusRefused(claimed.message(), code="claimed")
    return txn
