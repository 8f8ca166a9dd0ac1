"""Cases (docs/INTEGRITY.md "Cases"): opened by the signals when a flag is raised, worked by staff
who may change cases, read by auditors.

A case goes open → investigating → closed as cleared or as actioned; each change, assignment
and note is a ``CaseNote`` (append-only). Actions taken from a case are ``CaseAction`` rows
(append-only) linking what they caused: a ban (``operations.staff_ban``'s staff action), a void of
the hand in play at a table (``operations.staff_table_correct``'s) and a confiscation, coins taken
from the player's wallet back to the bank through the ledger (``wallet_adjust``, its reference
the case), with the reason. Each is idempotent on its ``request_key``.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from history.models import HandRecordSeat
from integrity.models import Case, CaseAction, CaseNote, GrantFlow, GrantFlowFlag, PairSignal
from operations.models import StaffAction
from operations.services import staff_ban, staff_table_correct
from operations.trail import staff_act
from wallet import services as wallet

#: The hands a case lists: the pair's newest together when it was opened.
CASE_HANDS = 200
OPEN_STATES = (Case.Status.OPEN, Case.Status.INVESTIGATING)


def may_work_cases(user: User) -> bool:
    """Staff who may change cases (auditors only read them)."""
    return bool(user.is_active and user.is_staff and user.has_perm("integrity.change_case"))


def _check(actor: User, reason: str) -> str:
    if not may_work_cases(actor):
        raise PermissionDenied(_("You may not do this."))
    if not reason or not reason.strip():
        raise ValidationError(_("A reason is required."))
    return reason.strip()


def pair_hand_ids(*, a: int, b: int, limit: int = CASE_HANDS) -> list[int]:
    """The hands ``a`` and ``b`` sat in together, newest first."""
    together = HandRecordSeat.objects.filter(user_id=b).values("record_id")
    return list(HandRecordSeat.objects.filter(user_id=a, record_id__in=together)
                .order_by("-record_id").values_list("record__hand_id", flat=True)[:limit])


def cases_open_for_flags(*, pairs: Iterable[PairSignal]) -> list[Case]:
    """A case for each pair whose flags grew, unless one is open for it already (the new flags
    are added to that one)."""
    opened = []
    for pair in pairs:
        current = Case.objects.filter(pair=pair, status__in=OPEN_STATES).first()
        figures = {"hands": pair.hands, "flow_net": pair.flow_net, "gift_net": pair.gift_net,
                   "info_net": pair.info_net, "favour_ab_net": pair.favour_ab_net,
                   "favour_ba_net": pair.favour_ba_net, "bet_ab_hands": pair.bet_ab_hands,
                   "bet_ab_net": pair.bet_ab_net, "bet_ba_hands": pair.bet_ba_hands, "bet_ba_net": pair.bet_ba_net,
                   "tables_at_once": pair.tables_at_once}
        if current is not None:
            current.flags = sorted(set(current.flags) | set(pair.flags))
            current.updated_at = timezone.now()
            current.save(update_fields=["flags", "updated_at"])
            continue
        number = Case.objects.filter(pair=pair).count() + 1
        case = Case.objects.create(
            signal=Case.Signal.PAIR, flags=list(pair.flags), summary=figures, pair=pair,
            hand_ids=pair_hand_ids(a=pair.a_id, b=pair.b_id), key=f"pair:{pair.a_id}:{pair.b_id}:{number}",
        )
        case.accounts.set([pair.a_id, pair.b_id])
        opened.append(case)
    return opened


def cases_open_for_welcome() -> list[Case]:
    """A case for each player flagged for receiving welcome coins who has none: the receiver and
    the grant-funded accounts that paid them are its linked accounts."""
    done = Case.objects.filter(signal=Case.Signal.WELCOME).values_list("key", flat=True)
    opened = []
    for flag in GrantFlowFlag.objects.exclude(receiver_id__in=[int(k.split(":")[1]) for k in done]):
        payers = set(GrantFlow.objects.filter(receiver_id=flag.receiver_id, payer_funded=True)
                     .values_list("payer_id", flat=True))
        hands = list(GrantFlow.objects.filter(Q(receiver_id=flag.receiver_id) | Q(payer_id=flag.receiver_id))
                     .order_by("-hand_id").values_list("hand_id", flat=True).distinct()[:CASE_HANDS])
        case = Case.objects.create(
            signal=Case.Signal.WELCOME, flags=["welcome"], hand_ids=hands, key=f"welcome:{flag.receiver_id}:1",
            summary={"hands": flag.hands, "payers": flag.payers, "received": flag.received, "paid": flag.paid},
        )
        case.accounts.set([flag.receiver_id, *payers])
        opened.append(case)
    return opened


def _note(case: Case, author: User, event: str, text: str) -> CaseNote:
    case.updated_at = timezone.now()
    return CaseNote.objects.create(case=case, author=author, event=event, text=text)


@transaction.atomic
def case_note_add(*, case_id: int, actor: User, text: str) -> CaseNote:
    text = _check(actor, text)
    case = Case.objects.select_for_update().get(pk=case_id)
    note = _note(case, actor, "note", text)
    case.save(update_fields=["updated_at"])
    return note


@transaction.atomic
def case_assign(*, case_id: int, actor: User, assignee: User | None) -> Case:
    """Give the case to a staff member who may work cases (or to nobody)."""
    _check(actor, "assign")
    if assignee is not None and not may_work_cases(assignee):
        raise ValidationError(_("Only staff who may work cases can be assigned one."))
    case = Case.objects.select_for_update().get(pk=case_id)
    if case.is_closed:
        raise ValidationError(_("This case is closed."))
    case.assignee = assignee
    _note(case, actor, "assigned", assignee.username if assignee else "-")
    case.save(update_fields=["assignee", "updated_at"])
    return case


@transaction.atomic
def case_investigate(*, case_id: int, actor: User) -> Case:
    """Open → investigating; the case goes to ``actor`` when nobody has it."""
    _check(actor, "investigate")
    case = Case.objects.select_for_update().get(pk=case_id)
    if case.status != Case.Status.OPEN:
        raise ValidationError(_("Only an open case can be investigated."))
    case.status = Case.Status.INVESTIGATING
    case.assignee = case.assignee or actor
    _note(case, actor, "investigating", "")
    case.save(update_fields=["status", "assignee", "updated_at"])
    return case


@transaction.atomic
def case_close(*, case_id: int, actor: User, outcome: str, reason: str) -> Case:
    """Close as cleared or as actioned (an actioned case has at least one action), with why."""
    reason = _check(actor, reason)
    if outcome not in (Case.Status.CLEARED, Case.Status.ACTIONED):
        raise ValidationError(_("A case is closed as cleared or as actioned."))
    case = Case.objects.select_for_update().get(pk=case_id)
    if case.is_closed:
        raise ValidationError(_("This case is closed."))
    if outcome == Case.Status.ACTIONED and not case.actions.exists():
        raise ValidationError(_("Take an action before closing the case as actioned."))
    case.status, case.closed_at, case.closed_by = outcome, timezone.now(), actor
    _note(case, actor, outcome, reason)
    case.save(update_fields=["status", "closed_at", "closed_by", "updated_at"])
    return case


def _open_case(case_id: int, user: User | None) -> Case:
    case = Case.objects.select_for_update().get(pk=case_id)
    if case.is_closed:
        raise ValidationError(_("This case is closed."))
    if user is not None and not case.accounts.filter(pk=user.pk).exists():
        raise ValidationError(_("This account is not linked to the case."))
    return case


def _case_reason(case: Case, reason: str) -> str:
    return _("Case #%(case)s: %(reason)s") % {"case": case.pk, "reason": reason}


def _done(request_key: str) -> CaseAction | None:
    return CaseAction.objects.filter(request_key=request_key).first()


@transaction.atomic
def case_ban(*, case_id: int, actor: User, user: User, reason: str, request_key: str) -> CaseAction:
    """Ban a linked account from the case (``operations.staff_ban``: needs its permission)."""
    reason = _check(actor, reason)
    key = f"ban:{request_key}"
    if (done := _done(key)) is not None:
        return done
    case = _open_case(case_id, user)
    act = staff_ban(actor=actor, user=user, reason=_case_reason(case, reason), request_key=f"case:{key}")
    return CaseAction.objects.create(case=case, kind=CaseAction.Kind.BAN, actor=actor, reason=reason,
                                     target_user=user, staff_action=act, request_key=key)


@transaction.atomic
def case_void(*, case_id: int, actor: User, table_id: int, reason: str, request_key: str) -> CaseAction:
    """Void the hand in play at a table (``operations.staff_table_correct``: every stake returned)."""
    reason = _check(actor, reason)
    key = f"void:{request_key}"
    if (done := _done(key)) is not None:
        return done
    case = _open_case(case_id, None)
    act = staff_table_correct(actor=actor, table_id=table_id, reason=_case_reason(case, reason),
                              request_key=f"case:{key}")
    return CaseAction.objects.create(case=case, kind=CaseAction.Kind.VOID, actor=actor, reason=reason,
                                     target_table_id=table_id, staff_action=act, request_key=key)


@transaction.atomic
def case_confiscate(*, case_id: int, actor: User, user: User, amount: int, reason: str,
                    request_key: str) -> CaseAction:
    """Take ``amount`` minor units from a linked account's wallet back to the bank: one ledger
    adjustment whose reference is the case and whose memo is the reason (needs
    ``integrity.confiscate_coins``). A wallet holding less refuses it, nothing taken."""
    reason = _check(actor, reason)
    if not actor.has_perm("integrity.confiscate_coins"):
        raise PermissionDenied(_("You may not do this."))
    if isinstance(amount, bool) or not isinstance(amount, int) or amount <= 0:
        raise ValidationError(_("The amount must be a positive number of coins."))
    key = f"confiscate:{request_key}"
    if (done := _done(key)) is not None:
        return done
    case = _open_case(case_id, user)
    txn = wallet.wallet_adjust(user=user, amount=-amount, reason=_case_reason(case, reason),
                               idempotency_key=f"case-confiscate:{request_key}", actor=actor,
                               reference=f"case:{case.pk}")
    act = staff_act(actor=actor, kind=StaffAction.Kind.CASE, reason=_case_reason(case, reason), target_user=user,
                    subject_type="integrity.case", subject_id=case.pk, amount=-amount, ledger_transaction=txn,
                    request_key=f"case:{key}")
    return CaseAction.objects.create(case=case, kind=CaseAction.Kind.CONFISCATE, actor=actor, reason=reason,
                                     target_user=user, amount=amount, ledger_transaction=txn, staff_action=act,
                                     request_key=key)
