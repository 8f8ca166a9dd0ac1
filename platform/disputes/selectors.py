"""Reading disputes: players see their own, auditors and staff allowed to view disputes see every one."""

from __future__ import annotations

from typing import Any

from django.db.models import Case, IntegerField, QuerySet, Value, When
from django.http import Http404

from accounts.permissions import AnyUser, can_read_disputes
from disputes.models import Dispute, DisputeEvent
from wallet.models import Entry

#: Events a player sees on their dispute (reviewers' notes stay internal).
PLAYER_EVENTS = (DisputeEvent.Kind.OPENED, DisputeEvent.Kind.REVIEW, DisputeEvent.Kind.UPHELD,
                 DisputeEvent.Kind.REJECTED, DisputeEvent.Kind.COMPENSATED)


def dispute_list_for(*, user: AnyUser) -> QuerySet[Dispute]:
    disputes = Dispute.objects.select_related("record", "record__table__stake_level", "voided__table__stake_level",
                                              "player")
    if not can_read_disputes(user):
        disputes = disputes.filter(player_id=user.pk)
    return disputes.order_by("-id")


def dispute_queue() -> QuerySet[Dispute]:
    """The review queue: open and under review first, oldest first."""
    pending = Case(
        When(status=Dispute.Status.OPEN, then=Value(0)), When(status=Dispute.Status.UNDER_REVIEW, then=Value(1)),
        default=Value(2), output_field=IntegerField(),
    )
    disputes = Dispute.objects.select_related("record", "voided", "player").annotate(queue=pending)
    return disputes.order_by("queue", "opened_at", "id")


def dispute_get_for(*, user: AnyUser, pk: int) -> Dispute:
    """The dispute if ``user`` opened it or may read every dispute; 404 otherwise."""
    dispute = Dispute.objects.select_related("record", "voided__table", "player").filter(pk=pk).first()
    if dispute is None or not user.is_authenticated:
        raise Http404
    if dispute.player_id != user.pk and not can_read_disputes(user):
        raise Http404
    return dispute


def dispute_events_for(*, dispute: Dispute, user: AnyUser) -> QuerySet[DisputeEvent]:
    events = dispute.events.select_related("actor").order_by("id")
    if not can_read_disputes(user):
        events = events.filter(kind__in=PLAYER_EVENTS)
    return events


def dispute_ledger_entries(*, dispute: Dispute) -> list[dict[str, Any]]:
    """The hand's settlement entries and the dispute's compensation entries."""
    settled = dispute.record.ledger_transaction_id if dispute.record is not None else None  # a voided hand: none
    ids = [i for i in (settled, dispute.compensation_transaction_id) if i]
    entries = Entry.objects.filter(transaction_id__in=ids).select_related("account", "transaction").order_by("id")
    return [
        {"transaction": e.transaction_id, "kind": e.transaction.kind, "account": str(e.account), "amount": e.amount,
         "at": e.transaction.created_at}
        for e in entries
    ]
