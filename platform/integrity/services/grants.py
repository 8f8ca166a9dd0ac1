"""Writes of the integrity app: the welcome-coins signal, recorded as each hand settles
(docs/INTEGRITY.md "Welcome coins passed on").

A player is grant-funded while their account is younger than ``GRANT_FLOW_ACCOUNT_DAYS`` and was
given welcome coins: its coins are, nearly all, the platform's gift. A hand's coins are netted
between its seats as the pair signal nets them (what each loser lost is shared among the winners
by what each won, rounded down); every such payment with a grant-funded payer or receiver is kept.
A receiver is flagged once, over the last ``GRANT_FLOW_WINDOW_DAYS``:

* they played at least ``GRANT_FLOW_HANDS`` hands with grant-funded players,
* the coins those players paid them less what they paid those players is at least
  ``GRANT_FLOW_MIN_COINS``, and
* that net is at least ``GRANT_FLOW_ONE_SIDED_PERCENT`` of the coins moved either way: honest
  players win and lose; a collector only wins.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime, timedelta

from django.conf import settings
from django.db.models import Count, Q, Sum
from django.utils import timezone

from integrity.models import GrantFlow, GrantFlowFlag
from wallet.selectors import welcome_funded


def _payments(deltas: Mapping[int, int]) -> list[tuple[int, int, int]]:
    """(payer, receiver, coins) of a hand's net coins per player, as the pair signal nets them."""
    won = sum(coins for coins in deltas.values() if coins > 0)
    return [
        (payer, receiver, gain * -lost // won)
        for payer, lost in deltas.items() if lost < 0
        for receiver, gain in deltas.items() if gain > 0
    ]


def hand_grant_flows_record(*, hand_id: int, deltas: Mapping[int, int]) -> None:
    """Record a settled hand's payments that involve a grant-funded player and judge each
    player they paid (called by the settlement, in its transaction).

    1. Nothing to do when nobody lost or nobody at the hand is grant-funded (one statement).
    2. Keep each payment to or from a grant-funded player (once per hand: a retried settlement
       writes nothing more).
    3. Judge every receiver of a grant-funded payer over the window, flagging or updating them.
    """
    if not any(coins < 0 for coins in deltas.values()) or not any(coins > 0 for coins in deltas.values()):
        return
    now = timezone.now()
    funded = welcome_funded(user_ids=list(deltas),
                            joined_since=now - timedelta(days=settings.GRANT_FLOW_ACCOUNT_DAYS))
    if not funded:
        return
    rows = [
        GrantFlow(hand_id=hand_id, payer_id=payer, receiver_id=receiver, amount=coins, payer_funded=payer in funded,
                  receiver_funded=receiver in funded, created_at=now)
        for payer, receiver, coins in _payments(deltas) if coins > 0 and (payer in funded or receiver in funded)
    ]
    GrantFlow.objects.bulk_create(rows, ignore_conflicts=True)
    for receiver in sorted({row.receiver_id for row in rows if row.payer_funded}):
        grant_flow_judge(receiver_id=receiver, hand_id=hand_id, now=now)


def grant_flow_judge(*, receiver_id: int, hand_id: int, now: datetime) -> GrantFlowFlag | None:
    """Flag ``receiver_id`` (or update their flag) if the window's figures pass every threshold."""
    since = now - timedelta(days=settings.GRANT_FLOW_WINDOW_DAYS)
    inflow = Q(receiver_id=receiver_id, payer_funded=True)
    outflow = Q(payer_id=receiver_id, receiver_funded=True)
    figures = GrantFlow.objects.filter(inflow | outflow, created_at__gte=since).aggregate(
        received=Sum("amount", filter=inflow, default=0), paid=Sum("amount", filter=outflow, default=0),
        hands=Count("hand_id", distinct=True), payers=Count("payer_id", filter=inflow, distinct=True),
    )
    received, paid, hands = int(figures["received"]), int(figures["paid"]), int(figures["hands"])
    net = received - paid
    passed = (hands >= settings.GRANT_FLOW_HANDS and net >= settings.GRANT_FLOW_MIN_COINS
              and net * 100 >= settings.GRANT_FLOW_ONE_SIDED_PERCENT * (received + paid))
    values = {"hands": hands, "payers": int(figures["payers"]), "received": received, "paid": paid,
              "updated_at": now}
    updated = GrantFlowFlag.objects.filter(receiver_id=receiver_id).update(**values)
    if not updated and passed:
        # Two tables may settle for one receiver at once: the second insert is dropped, not an error.
        GrantFlowFlag.objects.bulk_create([GrantFlowFlag(receiver_id=receiver_id, flagged_at=now,
                                                         flagged_hand_id=hand_id, **values)], ignore_conflicts=True)
    return GrantFlowFlag.objects.filter(receiver_id=receiver_id).first() if updated or passed else None
