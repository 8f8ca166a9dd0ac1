"""Staff actions, each with its row in the staff trail (docs/OPERATIONS.md): granting and
adjusting coins, correcting a table (voiding its hand in play, every stake returned), closing a
table and banning a player.

Every action needs a reason, checks the actor's permission, and is idempotent on its
``request_key``: the same request again returns the first action's row and does nothing more.
Coins above the approval threshold, or to oneself, wait for a second staff member
(``operations.four_eyes``): the row returned is then the request's.
"""

from __future__ import annotations

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from accounts.models import User
from games.models import Hand
from games.services.hands import hand_void
from games.services.seating import TableClosing, table_close
from games.services.standing import player_stop
from operations.four_eyes import act_amount_check, approval_needed, approval_request_open
from operations.models import ApprovalRequest, StaffAction
from operations.trail import cash_outs_since, ledger_mark, staff_act, staff_action_by_key
from tables.models import Table
from wallet import services as wallet

PERMISSIONS: dict[str, str] = {
    StaffAction.Kind.GRANT: "operations.grant_coins",
    StaffAction.Kind.ADJUST: "operations.grant_coins",
    StaffAction.Kind.TABLE_CORRECT: "operations.correct_table",
    StaffAction.Kind.TABLE_CLOSE: "operations.close_table",
    StaffAction.Kind.BAN: "operations.ban_player",
    StaffAction.Kind.UNBAN: "operations.ban_player",
}


def may_act(actor: User, kind: str) -> bool:
    """Whether a staff member may take this kind of action (auditors never may)."""
    return bool(actor.is_active and actor.is_staff and actor.has_perm(PERMISSIONS[kind]))


def _begin(actor: User, kind: str, reason: str, request_key: str) -> StaffAction | None:
    if not may_act(actor, kind):
        raise PermissionDenied(_("You may not do this."))
    if not reason or not reason.strip():
        raise ValidationError(_("A reason is required."))
    return staff_action_by_key(kind=kind, request_key=request_key)


def _record(actor: User, kind: str, reason: str, request_key: str, **fields: object) -> StaffAction:
    return staff_act(actor=actor, kind=kind, reason=reason, request_key=request_key, **fields)  # type: ignore[arg-type]


@transaction.atomic
def staff_grant(*, actor: User, user: User, amount: int, reason: str, request_key: str) -> StaffAction:
    """Grant ``amount`` minor units from the bank to the player's wallet (at most the cap; above
    the approval threshold, or to oneself, it waits for a second staff member)."""
    done = _begin(actor, StaffAction.Kind.GRANT, reason, request_key)
    if done is not None:
        return done
    act_amount_check(amount=amount)
    if approval_needed(actor=actor, user=user, amount=amount):
        return approval_request_open(actor=actor, kind=ApprovalRequest.Kind.GRANT, user=user, amount=amount,
                                     reason=reason, request_key=request_key)
    txn = wallet.wallet_grant(
        user=user, amount=amount, idempotency_key=f"staff-grant:{request_key}", actor=actor, memo=reason.strip(),
        reference=f"user:{user.pk}",
    )
    return _record(actor, StaffAction.Kind.GRANT, reason, request_key, target_user=user, amount=amount,
                   ledger_transaction=txn)


@transaction.atomic
def staff_adjust(*, actor: User, user: User, amount: int, reason: str, request_key: str) -> StaffAction:
    """Add (``amount`` > 0) or take back (< 0) coins against the bank, under the same limits as a grant."""
    done = _begin(actor, StaffAction.Kind.ADJUST, reason, request_key)
    if done is not None:
        return done
    act_amount_check(amount=amount, signed=True)
    if approval_needed(actor=actor, user=user, amount=amount):
        return approval_request_open(actor=actor, kind=ApprovalRequest.Kind.ADJUST, user=user, amount=amount,
                                     reason=reason, request_key=request_key)
    txn = wallet.wallet_adjust(
        user=user, amount=amount, reason=reason.strip(), idempotency_key=f"staff-adjust:{request_key}", actor=actor,
        reference=f"user:{user.pk}",
    )
    return _record(actor, StaffAction.Kind.ADJUST, reason, request_key, target_user=user, amount=amount,
                   ledger_transaction=txn)


@transaction.atomic
def staff_table_correct(*, actor: User, table_id: int, reason: str, request_key: str) -> StaffAction:
    """Correct a table whose hand is stuck: void the hand in play (every stake returned, the next
    deal scheduled) through the live-play service ``hand_void``."""
    done = _begin(actor, StaffAction.Kind.TABLE_CORRECT, reason, request_key)
    if done is not None:
        return done
    table = Table.objects.get(pk=table_id)
    hand = Hand.objects.filter(table=table, status=Hand.Status.ACTIVE).first()
    if hand is None:
        raise ValidationError(_("This table has no hand in play to void."))
    voided = hand_void(hand_id=hand.pk, reason=f"staff: {reason.strip()}"[:200])
    return _record(actor, StaffAction.Kind.TABLE_CORRECT, reason, request_key, target_table_id=table.pk,
                   details={"hand": hand.pk, "number": hand.number, "voided": voided})


@transaction.atomic
def staff_table_close(*, actor: User, table_id: int, reason: str, request_key: str) -> StaffAction:
    """Close a table for good through ``table_close`` (idle seats cashed out at once)."""
    done = _begin(actor, StaffAction.Kind.TABLE_CLOSE, reason, request_key)
    if done is not None:
        return done
    return table_close_recorded(actor=actor, table_id=table_id, reason=reason, request_key=request_key)[0]


@transaction.atomic
def table_close_recorded(*, actor: User, table_id: int, reason: str,
                         request_key: str | None = None) -> tuple[StaffAction, TableClosing]:
    """``table_close`` and its row in the staff trail, linking the cash-outs it posted (a seat
    dealt into the hand in play is cashed out by that hand's settlement). The caller checked the
    permission (the staff action's, or the tables admin's)."""
    if not reason or not reason.strip():
        raise ValidationError(_("A reason is required."))
    mark = ledger_mark()
    closing = table_close(table_id=table_id, actor=actor, reason=reason.strip())
    action = staff_act(
        actor=actor, kind=StaffAction.Kind.TABLE_CLOSE, reason=reason, target_table_id=table_id,
        amount=closing.amount, transactions=cash_outs_since(mark=mark, table_ids=[table_id]),
        details={"cashed_out": closing.cashed_out, "in_hand": closing.in_hand, "ledger_mark": mark},
        request_key=request_key,
    )
    return action, closing


@transaction.atomic
def staff_ban(*, actor: User, user: User, reason: str, request_key: str) -> StaffAction:
    """Ban a player: the account is deactivated (no log-in; its sessions no longer authenticate)
    and play stops (``player_stop``): every seat is left — cashed out at once, or at the end of
    the hand it is dealt into, where it is played as a leaver's — and every open socket of the
    player is told, on commit."""
    done = _begin(actor, StaffAction.Kind.BAN, reason, request_key)
    if done is not None:
        return done
    if user.pk == actor.pk or user.is_superuser:
        raise ValidationError(_("This account cannot be banned."))
    mark, was_active = ledger_mark(), user.is_active
    User.objects.filter(pk=user.pk).update(is_active=False)
    user.is_active = False
    left = player_stop(user=user, reason="banned")
    cash_outs = cash_outs_since(mark=mark, table_ids=[seat["table"] for seat in left], user_id=user.pk)
    return _record(actor, StaffAction.Kind.BAN, reason, request_key, target_user=user,
                   details={"seats": left, "ledger_mark": mark}, before={"is_active": was_active},
                   after={"is_active": False}, transactions=cash_outs)


@transaction.atomic
def staff_unban(*, actor: User, user: User, reason: str, request_key: str) -> StaffAction:
    """Lift a ban: the account may log in and sit again."""
    done = _begin(actor, StaffAction.Kind.UNBAN, reason, request_key)
    if done is not None:
        return done
    was_active = user.is_active
    User.objects.filter(pk=user.pk).update(is_active=True)
    user.is_active = True
    return _record(actor, StaffAction.Kind.UNBAN, reason, request_key, target_user=user,
                   before={"is_active": was_active}, after={"is_active": True})
