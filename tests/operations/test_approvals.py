"""Deciding a four-eyes request: a second staff member with the permission approves (the coins
are posted once, linked from the request and the trail) or refuses; never the asker, the payee,
an auditor or staff without the permission; a decided request stays decided."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import Permission
from django.core.exceptions import PermissionDenied, ValidationError
from django.test import Client

from accounts.models import User
from operations import services
from operations.approvals import approval_decide
from operations.models import ApprovalRequest, StaffAction
from wallet.audit import ledger_audit
from wallet.models import TransactionKind
from wallet.selectors import wallet_balance

pytestmark = pytest.mark.django_db


def _second(name: str = "second") -> User:
    user = User.objects.create_user(username=name, password="x" * 12, is_staff=True, language="en")
    user.user_permissions.add(Permission.objects.get(codename="grant_coins"))
    return User.objects.get(pk=user.pk)


def _asked(people: dict[str, Any], amount: int = 500_000, user: Any = None) -> ApprovalRequest:
    act = services.staff_grant(actor=people["staff"], user=user or people["player"], amount=amount,
                               reason="tournament prize", request_key="prize")
    return ApprovalRequest.objects.get(pk=act.subject_id)


def test_a_second_staff_member_approves_and_the_coins_are_posted_once(people: dict[str, Any]) -> None:
    request, second = _asked(people), _second()
    decided = approval_decide(actor=second, approval_id=request.pk, approve=True, reason="checked the results")
    assert (decided.status, decided.decided_by, wallet_balance(user=people["player"])) == ("approved", second, 500_000)
    tx = decided.ledger_transaction
    assert tx is not None and tx.kind == TransactionKind.GRANT and tx.idempotency_key == f"approval:{request.pk}"
    act = StaffAction.objects.get(kind="approved")
    assert (act.actor, act.ledger_transaction, act.subject_id, act.details["asked_by"]) == (
        second, tx, request.pk, people["staff"].pk)
    with pytest.raises(ValidationError, match="decided already"):
        approval_decide(actor=second, approval_id=request.pk, approve=True, reason="again")
    assert wallet_balance(user=people["player"]) == 500_000 and ledger_audit().ok


def test_a_refusal_moves_nothing_and_is_in_the_trail(people: dict[str, Any]) -> None:
    request = _asked(people)
    decided = approval_decide(actor=_second(), approval_id=request.pk, approve=False, reason="no tournament")
    assert decided.status == "rejected" and decided.ledger_transaction is None
    assert wallet_balance(user=people["player"]) == 0
    assert StaffAction.objects.get(kind="rejected").reason == "no tournament"


def test_no_one_approves_their_own_request_nor_one_that_pays_them(people: dict[str, Any]) -> None:
    request = _asked(people)
    with pytest.raises(ValidationError, match="second staff member"):
        approval_decide(actor=people["staff"], approval_id=request.pk, approve=True, reason="mine")
    second = _second()
    to_second = services.staff_grant(actor=people["staff"], user=second, amount=500_000, reason="r", request_key="2")
    with pytest.raises(ValidationError, match="second staff member"):
        approval_decide(actor=second, approval_id=to_second.subject_id, approve=True, reason="for me")
    own = services.staff_grant(actor=second, user=second, amount=100, reason="mine", request_key="own")
    with pytest.raises(ValidationError, match="second staff member"):
        approval_decide(actor=second, approval_id=own.subject_id, approve=True, reason="mine")
    assert wallet_balance(user=second) == 0 and ApprovalRequest.objects.filter(status="pending").count() == 3


@pytest.mark.parametrize("who", ["auditor", "bare", "player"])
def test_auditors_and_staff_without_the_permission_cannot_decide(people: dict[str, Any], who: str) -> None:
    request = _asked(people)
    with pytest.raises(PermissionDenied):
        approval_decide(actor=people[who], approval_id=request.pk, approve=True, reason="x")
    assert ApprovalRequest.objects.get(pk=request.pk).status == "pending"


def test_a_reason_is_required_and_the_cap_in_force_holds(people: dict[str, Any], settings: Any) -> None:
    request = _asked(people)
    with pytest.raises(ValidationError, match="reason"):
        approval_decide(actor=_second(), approval_id=request.pk, approve=True, reason="  ")
    settings.STAFF_ACT_CAP = 100_000
    with pytest.raises(ValidationError, match="At most"):
        approval_decide(actor=_second("third"), approval_id=request.pk, approve=True, reason="ok")
    assert wallet_balance(user=people["player"]) == 0


def test_the_approval_page_decides_and_refuses_the_asker(people: dict[str, Any]) -> None:
    request = _asked(people)
    url = f"/admin/operations/approvalrequest/{request.pk}/decide/"
    people["staff"].language = "en"
    people["staff"].save(update_fields=["language"])
    asker = Client()
    asker.force_login(people["staff"])
    page = asker.get(url).content.decode()
    assert "A second staff member must decide this" in page and 'name="decision"' not in page
    refused = asker.post(url, {"decision": "approve", "reason": "mine"})
    assert refused.status_code == 200 and ApprovalRequest.objects.get(pk=request.pk).status == "pending"
    other = Client()
    other.force_login(_second())
    listed = other.get("/admin/operations/approvalrequest/?status__exact=pending").content.decode()
    assert url in listed
    assert other.post(url, {"decision": "approve", "reason": "ok"}).status_code == 302
    assert wallet_balance(user=people["player"]) == 500_000
    auditor = Client()
    auditor.force_login(people["auditor"])
    assert auditor.get("/admin/operations/approvalrequest/").status_code == 200
    assert auditor.get(url).status_code == 403
