"""Cases (integrity.services.cases): open → investigating → closed as cleared or actioned; notes
and actions kept for good (refused UPDATE and DELETE, by the database too); a confiscation is a
ledger adjustment referring to the case; a ban links its staff action; auditors only read."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import DatabaseError, connection, transaction
from django.utils import timezone

from history.models import ImmutableRecord
from integrity.models import Case, CaseAction, CaseNote, PairSignal
from integrity.services import cases
from operations.models import StaffAction
from tests.factories import funded_user
from wallet.models import LedgerTransaction
from wallet.selectors import wallet_balance


def _case(a: Any, b: Any) -> Case:
    lo, hi = sorted((a, b), key=lambda u: u.pk)
    pair = PairSignal.objects.create(a=lo, b=hi, hands=40, flow_net=9_000, flow_sq=90_000, first_at=timezone.now(),
                                     last_at=timezone.now(), flags=["flow"], flagged_at=timezone.now())
    [case] = cases.cases_open_for_flags(pairs=[pair])
    return case


@pytest.mark.django_db
def test_a_case_is_worked_from_open_to_closed_as_actioned_with_each_action_linked(crew: dict[str, Any]) -> None:
    worker = crew["worker"]
    dumper, receiver = funded_user("dumper", 50_000), funded_user("receiver", 90_000)
    case = _case(dumper, receiver)
    assert case.status == Case.Status.OPEN and case.flags == ["flow"]
    cases.case_investigate(case_id=case.pk, actor=worker)
    cases.case_note_add(case_id=case.pk, actor=worker, text="every fouled hand went to receiver")
    taken = cases.case_confiscate(case_id=case.pk, actor=worker, user=receiver, amount=40_000,
                                  reason="dumped coins", request_key="k1")
    again = cases.case_confiscate(case_id=case.pk, actor=worker, user=receiver, amount=40_000,
                                  reason="dumped coins", request_key="k1")
    assert again == taken and wallet_balance(user=receiver) == 50_000
    txn = LedgerTransaction.objects.get(pk=taken.ledger_transaction_id)
    assert txn.reference == f"case:{case.pk}" and "dumped coins" in txn.memo
    ban = cases.case_ban(case_id=case.pk, actor=worker, user=dumper, reason="dumper", request_key="k2")
    assert StaffAction.objects.get(pk=ban.staff_action_id).target_user == dumper
    dumper.refresh_from_db()
    assert not dumper.is_active
    closed = cases.case_close(case_id=case.pk, actor=worker, outcome=Case.Status.ACTIONED, reason="banned, taken")
    assert closed.status == Case.Status.ACTIONED and closed.closed_by == worker and closed.assignee == worker
    assert [n.event for n in CaseNote.objects.filter(case=case)] == ["investigating", "note", "actioned"]
    with pytest.raises(ValidationError):
        cases.case_investigate(case_id=case.pk, actor=worker)
    with pytest.raises(ValidationError):
        cases.case_ban(case_id=case.pk, actor=worker, user=receiver, reason="late", request_key="k3")


@pytest.mark.django_db
def test_a_case_closes_as_cleared_but_not_as_actioned_without_an_action(crew: dict[str, Any]) -> None:
    case = _case(funded_user("ann", 1), funded_user("bob", 1))
    with pytest.raises(ValidationError):
        cases.case_close(case_id=case.pk, actor=crew["worker"], outcome=Case.Status.ACTIONED, reason="x")
    with pytest.raises(ValidationError):
        cases.case_close(case_id=case.pk, actor=crew["worker"], outcome=Case.Status.CLEARED, reason=" ")
    cleared = cases.case_close(case_id=case.pk, actor=crew["worker"], outcome=Case.Status.CLEARED, reason="friends")
    assert cleared.status == Case.Status.CLEARED and cleared.closed_at is not None


@pytest.mark.django_db
def test_an_auditor_reads_cases_but_may_not_work_them_nor_touch_an_account_outside_the_case(
        crew: dict[str, Any]) -> None:
    ann, bob, eve = funded_user("ann", 5_000), funded_user("bob", 5_000), funded_user("eve", 5_000)
    case = _case(ann, bob)
    with pytest.raises(PermissionDenied):
        cases.case_note_add(case_id=case.pk, actor=crew["auditor"], text="hello")
    with pytest.raises(PermissionDenied):
        cases.case_confiscate(case_id=case.pk, actor=crew["auditor"], user=ann, amount=1, reason="x", request_key="a")
    with pytest.raises(ValidationError):
        cases.case_confiscate(case_id=case.pk, actor=crew["worker"], user=eve, amount=1, reason="x", request_key="b")
    assert crew["auditor"].has_perm("integrity.view_case") and not crew["auditor"].has_perm("integrity.change_case")
    assert wallet_balance(user=eve) == 5_000 and not CaseAction.objects.exists()


@pytest.mark.django_db
def test_a_second_flag_joins_the_open_case_and_a_closed_pair_gets_a_new_one(crew: dict[str, Any]) -> None:
    case = _case(funded_user("ann", 1), funded_user("bob", 1))
    pair = case.pair
    assert pair is not None
    pair.flags = ["flow", "tables"]
    assert cases.cases_open_for_flags(pairs=[pair]) == []
    case.refresh_from_db()
    assert case.flags == ["flow", "tables"]
    cases.case_close(case_id=case.pk, actor=crew["worker"], outcome=Case.Status.CLEARED, reason="friends")
    [again] = cases.cases_open_for_flags(pairs=[pair])
    assert again.pk != case.pk and again.key.endswith(":2")


@pytest.mark.django_db
def test_case_notes_and_actions_refuse_change_in_python_and_in_postgresql(crew: dict[str, Any]) -> None:
    case = _case(funded_user("ann", 1), funded_user("bob", 1))
    note = cases.case_note_add(case_id=case.pk, actor=crew["worker"], text="first look")
    with pytest.raises(ImmutableRecord):
        CaseNote.objects.filter(pk=note.pk).update(text="nothing")
    if connection.vendor != "postgresql":
        return
    for sql in ("UPDATE integrity_casenote SET text = 'x'", "DELETE FROM integrity_casenote"):
        with pytest.raises(DatabaseError), transaction.atomic(), connection.cursor() as cur:
            cur.execute(sql)
    assert CaseNote.objects.get(pk=note.pk).text == "first look"
