"""Deciding a four-eyes request (docs/OPERATIONS.md "Four eyes"): a second staff member approves
it (the coins are posted then) or refuses it, with a reason, once.

No one decides a request they asked for, nor one that pays themselves; the approver needs the
permission the act itself needs (granting coins, or reviewing disputes for a compensation).
"""

from __future__ import annotations

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from accounts.permissions import can_review_disputes
from accounts.roles import is_auditor
from disputes.services import dispute_compensation_pay
from operations.four_eyes import act_amount_check
from operations.models import ApprovalRequest, StaffAction
from operations.trail import staff_act
from wallet import services as wallet
from wallet.models import LedgerTransaction


def may_decide_kind(actor: User, kind: str) -> bool:
    """Whether ``actor`` holds the permission the act of this kind needs (auditors never do)."""
    if not (actor.is_active and actor.is_staff) or is_auditor(actor):
        return False
    if kind == ApprovalRequest.Kind.COMPENSATION:
        return can_review_disputes(actor)
    return actor.has_perm("operations.grant_coins")


def may_decide(actor: User, request: ApprovalRequest) -> bool:
    """Whether ``actor`` may decide this request: the permission, and neither its asker nor its payee."""
    return (may_decide_kind(actor, request.kind) and actor.pk != request.requested_by_id
            and actor.pk != request.target_user_id)


def _post(request: ApprovalRequest) -> LedgerTransaction:
    """The approved act's coins, keyed on the request so a retry posts once."""
    key, memo = f"approval:{request.pk}", request.reason[:500]
    if request.kind == ApprovalRequest.Kind.GRANT:
        return wallet.wallet_grant(user=request.target_user, amount=request.amount, idempotency_key=key,
                                   actor=request.requested_by, memo=memo, reference=f"approval:{request.pk}")
    if request.kind == ApprovalRequest.Kind.ADJUST:
        return wallet.wallet_adjust(user=request.target_user, amount=request.amount, reason=memo,
                                    idempotency_key=key, actor=request.requested_by,
                                    reference=f"approval:{request.pk}")
    assert request.dispute_id is not None  # the CHECK constraint: a compensation names its dispute
    tx: LedgerTransaction = dispute_compensation_pay(dispute_id=request.dispute_id, amount=request.amount,
                                                     actor=request.requested_by, reason=memo)
    return tx


@transaction.atomic
def approval_decide(*, actor: User, approval_id: int, approve: bool, reason: str) -> ApprovalRequest:
    """Approve (post the coins) or refuse a pending request.

    1. Lock the request; it must be pending; a reason is required.
    2. The decider needs the act's permission, and may not be its asker nor its payee.
    3. Approved: the coins are posted (within the cap in force), the request keeps the
       transaction; either way the decision is one row of the staff trail, linking it.
    """
    why = (reason or "").strip()
    if not why:
        raise ValidationError(_("A reason is required."))
    request = ApprovalRequest.objects.select_for_update().select_related("target_user", "requested_by").get(
        pk=approval_id)
    if request.status != ApprovalRequest.Status.PENDING:
        raise ValidationError(_("This request has been decided already."))
    if not may_decide_kind(actor, request.kind):
        raise PermissionDenied(_("You may not do this."))
    if actor.pk in (request.requested_by_id, request.target_user_id):
        raise ValidationError(_("A second staff member must decide this: not the one who asked, "
                                "nor the one it pays."))
    tx = None
    if approve:
        act_amount_check(amount=request.amount, signed=request.kind == ApprovalRequest.Kind.ADJUST)
        tx = _post(request)
    request.status = ApprovalRequest.Status.APPROVED if approve else ApprovalRequest.Status.REJECTED
    request.decided_by, request.decided_at, request.decision_reason = actor, timezone.now(), why
    request.ledger_transaction = tx
    request.save(update_fields=["status", "decided_by", "decided_at", "decision_reason", "ledger_transaction"])
    staff_act(
        actor=actor, kind=StaffAction.Kind.APPROVED if approve else StaffAction.Kind.REJECTED, reason=why,
        target_user=request.target_user, amount=request.amount, subject_type="approval", subject_id=request.pk,
        before={"status": ApprovalRequest.Status.PENDING}, after={"status": request.status},
        ledger_transaction=tx, details={"kind": request.kind, "asked_by": request.requested_by_id,
                                        "dispute": request.dispute_id},
        request_key=f"approval:{request.pk}",
    )
    return request
