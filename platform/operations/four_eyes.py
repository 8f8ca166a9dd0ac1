"""Four eyes on money (docs/OPERATIONS.md "Four eyes"): the limits of one staff act that moves
coins, and the request a second staff member approves.

A grant, an adjustment or a dispute compensation of more than ``STAFF_APPROVAL_ABOVE`` minor
units (either sign), or to the staff member's own account, is not posted: it waits as an
:class:`~operations.models.ApprovalRequest` (``operations.approvals`` decides it). None may be
more than ``STAFF_ACT_CAP``.
"""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from accounts.models import User
from operations.models import ApprovalRequest, StaffAction
from operations.trail import staff_act
from wallet.money import format_coins


def approval_above() -> int:
    """Coins (minor units) one staff member may move alone, per act."""
    return int(settings.STAFF_APPROVAL_ABOVE)


def act_cap() -> int:
    """The most coins (minor units) one act may move, approved or not."""
    return int(settings.STAFF_ACT_CAP)


def act_amount_check(*, amount: object, signed: bool = False) -> int:
    """The amount of one act, or a ValidationError saying what is wrong with it: a whole number
    of minor units, positive (``signed``: not zero), at most the cap either way."""
    if isinstance(amount, bool) or not isinstance(amount, int) or amount == 0 or (amount < 0 and not signed):
        raise ValidationError(_("The amount must be a positive number of coins.") if not signed
                              else _("An adjustment is a number of coins other than zero."))
    if abs(amount) > act_cap():
        raise ValidationError(_("At most %(cap)s coins per act.") % {"cap": format_coins(act_cap(), grouping=True)})
    return amount


def approval_needed(*, actor: User, user: User, amount: int) -> bool:
    """Whether the act waits for a second staff member: above the threshold, or for oneself."""
    return abs(amount) > approval_above() or actor.pk == user.pk


def approval_by_key(*, kind: str, request_key: str) -> ApprovalRequest | None:
    return ApprovalRequest.objects.filter(request_key=f"{kind}:{request_key}").first()


def approval_request_open(
    *, actor: User, kind: str, user: User, amount: int, reason: str, request_key: str, dispute_id: int | None = None,
) -> StaffAction:
    """Ask for a second staff member's approval (idempotent on ``request_key``); nothing is
    posted yet. Returns the trail's row of the request."""
    done = StaffAction.objects.filter(request_key=f"{StaffAction.Kind.APPROVAL_ASKED}:{kind}:{request_key}").first()
    if done is not None:
        return done
    request = ApprovalRequest.objects.create(
        kind=kind, requested_by=actor, target_user=user, amount=amount, reason=reason.strip(), dispute_id=dispute_id,
        request_key=f"{kind}:{request_key}",
    )
    return staff_act(
        actor=actor, kind=StaffAction.Kind.APPROVAL_ASKED, reason=reason, target_user=user, amount=amount,
        subject_type="approval", subject_id=request.pk, after={"kind": kind, "status": request.status},
        details={"dispute": dispute_id} if dispute_id is not None else None, request_key=f"{kind}:{request_key}",
    )
