"""The staff trail's one writer (docs/OPERATIONS.md "Staff trail"): every staff act from any page
is one :class:`~operations.models.StaffAction` row, written in the transaction of the act.

Any app records its staff acts here (the staff actions, the stake-level, welcome-coin and
account pages, table closes, dispute decisions, approvals, integrity cases); the rows can never
be changed or deleted (database triggers on PostgreSQL).
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterable
from datetime import datetime, timedelta
from typing import Any

from django.core.exceptions import ValidationError
from django.core.serializers.json import DjangoJSONEncoder
from django.db.models import Max, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from operations.models import StaffAction, StaffActionTransaction
from wallet.models import LedgerTransaction, TransactionKind

REASON_MAX = 4000


def _plain(value: Any) -> Any:
    """A value as JSON keeps it (dates and decimals as text), so before and after are exact."""
    if value is None:
        return None
    return json.loads(json.dumps(value, cls=DjangoJSONEncoder))


def staff_act(
    *, actor: User, kind: str, reason: str, target_user: User | None = None, target_table_id: int | None = None,
    subject_type: str = "", subject_id: int | None = None, amount: int | None = None,
    before: dict[str, Any] | None = None, after: dict[str, Any] | None = None,
    ledger_transaction: LedgerTransaction | None = None, transactions: Iterable[int] = (),
    details: dict[str, Any] | None = None, request_key: str | None = None,
) -> StaffAction:
    """Record one staff act: who (``actor``), what (``kind``, a ``StaffAction.Kind``), why
    (``reason``, required), on what (a player, a table, or any ``subject_type`` and
    ``subject_id``), the values ``before`` and ``after``, the coins' ``ledger_transaction`` and
    every other ledger transaction it caused (``transactions``, ids). ``request_key`` makes it
    unique (a retried act finds its row); without one, a fresh key.

    Called inside the act's own transaction, so the act and its row commit together or not at all.
    """
    if kind not in StaffAction.Kind.values:
        raise ValueError(f"unknown staff act {kind!r}")
    why = (reason or "").strip()
    if not why:
        raise ValidationError(_("A reason is required."))
    action = StaffAction.objects.create(
        kind=kind, actor=actor, reason=why[:REASON_MAX], target_user=target_user, target_table_id=target_table_id,
        subject_type=subject_type, subject_id=subject_id, amount=amount, before=_plain(before),
        after=_plain(after), ledger_transaction=ledger_transaction, details=_plain(details) or {},
        request_key=f"{kind}:{request_key or uuid.uuid4().hex}",
    )
    linked = {*transactions, *([ledger_transaction.pk] if ledger_transaction is not None else [])}
    StaffActionTransaction.objects.bulk_create(
        [StaffActionTransaction(action=action, transaction_id=pk) for pk in sorted(linked)]
    )
    return action


def ledger_mark() -> int:
    """The last ledger transaction's id: the transactions an act causes after it are newer."""
    return int(LedgerTransaction.objects.aggregate(last=Max("id"))["last"] or 0)


def cash_outs_since(*, mark: int, table_ids: Iterable[int], user_id: int | None = None) -> list[int]:
    """The cash-outs posted after ``mark`` at these tables (of one player, with ``user_id``):
    the ones a close or a ban caused, read in the act's own transaction."""
    prefixes = [f"cashout:{t}:{'' if user_id is None else f'{user_id}:'}" for t in table_ids]
    if not prefixes:
        return []
    keyed = Q()
    for prefix in prefixes:
        keyed |= Q(idempotency_key__startswith=prefix)
    rows = LedgerTransaction.objects.filter(keyed, pk__gt=mark, kind=TransactionKind.CASH_OUT)
    return list(rows.order_by("pk").values_list("pk", flat=True))


def staff_action_by_key(*, kind: str, request_key: str) -> StaffAction | None:
    """The staff act already taken with this request key, or the approval asked for with it."""
    keys = [f"{kind}:{request_key}", f"{StaffAction.Kind.APPROVAL_ASKED}:{kind}:{request_key}"]
    return StaffAction.objects.filter(request_key__in=keys).first()


#: How long after a close or a ban its seats still in a hand are awaited: a hand (a trio's set of
#: six) ends within minutes; a day leaves room for a worker that was down.
AWAIT_HAND_END = timedelta(days=1)


def trail_cash_outs_link(*, now: datetime | None = None) -> int:
    """Link to a close or a ban the cash-outs it caused at the end of a hand: a seat dealt into
    the hand in play is cashed out by that hand's settlement, after the act's own transaction.
    Run by the beat (``operations.trail_links``); returns the links made.

    1. The closes and bans of the last day that left seats in a hand (their ``details``).
    2. A close: every cash-out at its table after the act's ledger mark (nobody sits at a closed
       table). A ban: the player's first cash-out after the mark at each table where it was in a
       hand. Cash-outs at one table are posted under its lock, as the act was, so none posted
       after the act has an id below the mark.
    3. Links already made are skipped, and the pair is unique, so runs may overlap or repeat.
    """
    now = now or timezone.now()
    acts = StaffAction.objects.filter(kind__in=[StaffAction.Kind.TABLE_CLOSE, StaffAction.Kind.BAN],
                                      at__gte=now - AWAIT_HAND_END)
    links: list[StaffActionTransaction] = []
    for act in acts:
        awaited = _awaited_tables(act)
        if not awaited:
            continue
        linked = set(act.links.values_list("transaction_id", flat=True))
        closed = act.kind == StaffAction.Kind.TABLE_CLOSE
        for table_id in awaited:
            found = cash_outs_since(mark=int(act.details["ledger_mark"]), table_ids=[table_id],
                                    user_id=None if closed else act.target_user_id)
            caused = found if closed else found[:1]
            links += [StaffActionTransaction(action=act, transaction_id=pk) for pk in caused if pk not in linked]
    StaffActionTransaction.objects.bulk_create(links, ignore_conflicts=True)
    return len(links)


def _awaited_tables(act: StaffAction) -> list[int]:
    """The tables where the act left a seat in a hand, to be cashed out when it ends."""
    details = act.details or {}
    if "ledger_mark" not in details:
        return []
    if act.kind == StaffAction.Kind.TABLE_CLOSE:
        return [act.target_table_id] if details.get("in_hand") and act.target_table_id else []
    return [int(seat["table"]) for seat in details.get("seats", []) if not seat.get("cashed_out")]
