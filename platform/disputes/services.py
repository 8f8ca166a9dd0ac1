"""Disputes: a player opens one on a hand they played; staff review and resolve it.

Statuses move open → under review → upheld / rejected, nothing else. Resolving never
touches the hand's history: an upheld dispute may pay a compensation through
:func:`wallet.services.wallet_compensate` (kind ``dispute_compensation``, reference
``dispute:<id>``, idempotent on the dispute). Every change writes a :class:`DisputeEvent`
with its actor and time. Auditors read everything and change nothing.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from accounts.permissions import can_review_disputes
from disputes.models import Dispute, DisputeEvent
from history.models import HandRecord, HandRecordSeat, VoidedHandSeat
from kernel.errors import HTTP_FORBIDDEN, AppError
from operations.four_eyes import act_amount_check, approval_needed, approval_request_open
from operations.models import ApprovalRequest, StaffAction
from operations.trail import staff_act
from wallet import services as wallet

MAX_TEXT = 4000


class DisputeError(AppError):
    """A refused request, with a message the player or reviewer can read (already translated)."""


class NotAllowed(DisputeError):
    """The person may not do this: the API answers 403."""

    code = "forbidden"
    status_code = HTTP_FORBIDDEN


def window() -> dt.timedelta:
    """How long after a hand its players may open a dispute (``DISPUTE_WINDOW_DAYS``, default 30)."""
    return dt.timedelta(days=int(getattr(settings, "DISPUTE_WINDOW_DAYS", 30)))


def _event(dispute: Dispute, kind: str, actor: User | None, *, before: str = "", note: str = "",
           data: dict[str, Any] | None = None) -> DisputeEvent:
    return DisputeEvent.objects.create(
        dispute=dispute, kind=kind, actor=actor, from_status=before, to_status=dispute.status, note=note,
        data=data or {},
    )


def _text(value: str, field: str) -> str:
    text = (value or "").strip()
    if not text:
        raise DisputeError(_("Please write %(field)s.") % {"field": field})
    if len(text) > MAX_TEXT:
        raise DisputeError(_("Please keep it under %(count)d characters.") % {"count": MAX_TEXT})
    return text


@transaction.atomic
def dispute_open(*, player: User, record: HandRecord | None = None, voided: VoidedHandSeat | None = None,
                 category: str, text: str) -> Dispute:
    """Open a dispute on a hand ``player`` played, within the dispute window: a recorded hand
    (``record``) or one the platform voided (``voided``, the player's own row of it)."""
    if record is not None:
        played, ended = HandRecordSeat.objects.filter(record=record, user=player).exists(), record.finished_at
    elif voided is not None:
        played, ended = voided.user_id == player.pk, voided.voided_at
    else:
        played, ended = False, timezone.now()
    if not played:
        raise NotAllowed(_("You can only open a dispute on a hand you played."))
    if timezone.now() - ended > window():
        days = window().days
        raise DisputeError(_("Disputes must be opened within %(days)d days of the hand.") % {"days": days},
                           code="too_late")
    if category not in Dispute.Category.values:
        raise DisputeError(_("Please choose a category."))
    body = _text(text, _("what happened"))
    same = Dispute.objects.filter(record=record) if record is not None else Dispute.objects.filter(voided=voided)
    if same.filter(player=player).exists():
        raise DisputeError(_("You already opened a dispute on this hand."), code="duplicate")
    dispute = Dispute.objects.create(record=record, voided=voided, player=player, category=category, text=body)
    _event(dispute, DisputeEvent.Kind.OPENED, player, data={"category": category})
    return dispute


def _locked(dispute: Dispute, actor: User) -> Dispute:
    if not can_review_disputes(actor):
        raise NotAllowed(_("Only staff who review disputes may change them."))
    return Dispute.objects.select_for_update().get(pk=dispute.pk)


@transaction.atomic
def dispute_review_start(*, dispute: Dispute, actor: User, note: str = "") -> Dispute:
    """open → under review."""
    locked = _locked(dispute, actor)
    if locked.status != Dispute.Status.OPEN:
        raise DisputeError(_("Only an open dispute can be taken under review."), code="status")
    locked.status = Dispute.Status.UNDER_REVIEW
    locked.save(update_fields=["status"])
    _event(locked, DisputeEvent.Kind.REVIEW, actor, before=Dispute.Status.OPEN, note=note.strip())
    _trail(locked, actor, note.strip() or "review started", before={"status": Dispute.Status.OPEN})
    return locked


@transaction.atomic
def dispute_note(*, dispute: Dispute, actor: User, note: str) -> DisputeEvent:
    """A reviewer's note on the dispute's log (not shown to the player)."""
    locked = _locked(dispute, actor)
    event = _event(locked, DisputeEvent.Kind.NOTE, actor, before=locked.status, note=_text(note, _("a note")))
    _trail(locked, actor, event.note, before={"status": locked.status}, after={"note": event.note})
    return event


def _trail(dispute: Dispute, actor: User, reason: str, *, before: dict[str, Any], after: dict[str, Any] | None = None,
           tx: Any = None) -> StaffAction:
    """The decision's row in the staff trail (docs/OPERATIONS.md "Staff trail")."""
    return staff_act(
        actor=actor, kind=StaffAction.Kind.DISPUTE, reason=reason, target_user=dispute.player, subject_type="dispute",
        subject_id=dispute.pk, before=before, after=after or {"status": dispute.status},
        amount=dispute.compensation or None, ledger_transaction=tx,
    )


def _compensation_check(compensation: int, upheld: bool) -> None:
    if isinstance(compensation, bool) or not isinstance(compensation, int) or compensation < 0:
        raise DisputeError(_("A compensation is a whole, non-negative number of minor units."))
    if compensation and not upheld:
        raise DisputeError(_("Only an upheld dispute can be compensated."))
    if compensation:
        try:
            act_amount_check(amount=compensation)
        except ValidationError as exc:
            raise DisputeError(" ".join(exc.messages)) from exc


@transaction.atomic
def dispute_resolve(*, dispute: Dispute, actor: User, upheld: bool, reason: str, compensation: int = 0) -> Dispute:
    """under review → upheld (optionally with a compensation) or rejected.

    1. Lock the dispute; it must be under review; a reason is required (the player sees it).
    2. Upheld with ``compensation`` > 0, at most ``STAFF_ACT_CAP``: one wallet transaction pays
       the player, keyed on the dispute so a retry pays once; the hand record is never touched.
       Above ``STAFF_APPROVAL_ABOVE``, or to the reviewer's own account, nothing is paid yet: the
       compensation waits for a second staff member (``operations.four_eyes``), who pays it
       through :func:`dispute_compensation_pay`.
    3. Status, reason, resolver and time are saved; the payment and the decision are logged, in
       the dispute's events and in the staff trail.
    """
    locked = _locked(dispute, actor)
    if locked.status != Dispute.Status.UNDER_REVIEW:
        raise DisputeError(_("Take the dispute under review before resolving it."), code="status")
    why = _text(reason, _("the reason"))
    _compensation_check(compensation, upheld)
    before = locked.status
    locked.status = Dispute.Status.UPHELD if upheld else Dispute.Status.REJECTED
    tx = None
    if compensation and approval_needed(actor=actor, user=locked.player, amount=compensation):
        approval_request_open(actor=actor, kind=ApprovalRequest.Kind.COMPENSATION, user=locked.player,
                              amount=compensation, reason=why, request_key=f"dispute:{locked.pk}",
                              dispute_id=locked.pk)
    elif compensation:
        tx = _pay(locked, compensation, actor, why, before)
    locked.reason, locked.resolved_at, locked.resolved_by = why, timezone.now(), actor
    locked.save()
    kind = DisputeEvent.Kind.UPHELD if upheld else DisputeEvent.Kind.REJECTED
    _event(locked, kind, actor, before=before, note=why)
    _trail(locked, actor, why, before={"status": before},
           after={"status": locked.status, "compensation": locked.compensation}, tx=tx)
    return locked


def _pay(locked: Dispute, amount: int, actor: User, why: str, before: str) -> Any:
    tx = wallet.wallet_compensate(
        user=locked.player, amount=amount, dispute_ref=f"dispute:{locked.pk}",
        idempotency_key=f"dispute:{locked.pk}:compensation", actor=actor, memo=why[:500],
    )
    locked.compensation, locked.compensation_transaction_id = amount, tx.pk
    _event(locked, DisputeEvent.Kind.COMPENSATED, actor, before=before, data={"amount": amount, "transaction": tx.pk})
    return tx


@transaction.atomic
def dispute_compensation_pay(*, dispute_id: int, amount: int, actor: User, reason: str) -> Any:
    """Pay an upheld dispute's approved compensation (``operations.approvals``, which records
    the approval in the staff trail); the dispute keeps the amount and the transaction.
    Returns the ledger transaction."""
    locked = Dispute.objects.select_for_update().get(pk=dispute_id)
    if locked.status != Dispute.Status.UPHELD or locked.compensation:
        raise DisputeError(_("This dispute is not waiting for a compensation."), code="status")
    tx = _pay(locked, amount, actor, reason, locked.status)
    locked.save(update_fields=["compensation", "compensation_transaction_id"])
    return tx
