"""Four eyes on money: a grant or an adjustment above STAFF_APPROVAL_ABOVE, or to one's own
account, waits for a second staff member; none passes STAFF_ACT_CAP; absurd amounts are a clear
form error, never a server error."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from hypothesis import given, settings
from hypothesis import strategies as st

from operations import services
from operations.four_eyes import act_amount_check, approval_needed
from operations.models import ApprovalRequest, StaffAction
from tests.operations.test_services import _issued_key
from wallet.selectors import wallet_balance

pytestmark = pytest.mark.django_db
URL = "/admin/operations/staffaction/act/"
ABOVE, CAP = 100_000, 10_000_000  # the defaults (platform/config/settings/base.py)


def test_a_grant_up_to_the_threshold_is_posted_at_once(people: dict[str, Any]) -> None:
    act = services.staff_grant(actor=people["staff"], user=people["player"], amount=ABOVE, reason="r", request_key="a")
    assert act.kind == StaffAction.Kind.GRANT and wallet_balance(user=people["player"]) == ABOVE
    assert not ApprovalRequest.objects.exists()


@pytest.mark.parametrize(("kind", "amount"), [("grant", ABOVE + 1), ("adjust", ABOVE + 1), ("adjust", -ABOVE - 1)])
def test_above_the_threshold_it_waits_and_nothing_moves(people: dict[str, Any], kind: str, amount: int) -> None:
    service = services.staff_grant if kind == "grant" else services.staff_adjust
    act = service(actor=people["staff"], user=people["player"], amount=amount, reason="big one", request_key="k")
    request = ApprovalRequest.objects.get(pk=act.subject_id)
    assert (act.kind, request.kind, request.status, request.amount) == ("approval_asked", kind, "pending", amount)
    assert wallet_balance(user=people["player"]) == 0
    again = service(actor=people["staff"], user=people["player"], amount=amount, reason="big one", request_key="k")
    assert again.pk == act.pk and ApprovalRequest.objects.count() == 1


def test_a_grant_to_ones_own_account_always_waits(people: dict[str, Any]) -> None:
    staff = people["staff"]
    act = services.staff_grant(actor=staff, user=staff, amount=1, reason="for me", request_key="self")
    assert act.kind == "approval_asked" and wallet_balance(user=staff) == 0


@pytest.mark.parametrize("amount", [0, -1, CAP + 1, 10**19, 9 * 10**18, True, 1.5, "100"])
def test_amounts_outside_the_limits_are_refused_with_a_reason(people: dict[str, Any], amount: Any) -> None:
    with pytest.raises(ValidationError):
        services.staff_grant(actor=people["staff"], user=people["player"], amount=amount, reason="r", request_key="x")
    assert not StaffAction.objects.exists() and not ApprovalRequest.objects.exists()


@settings(max_examples=60, deadline=None)
@given(amount=st.integers(min_value=-(10**30), max_value=10**30))
def test_the_limits_are_exact(amount: int) -> None:
    allowed = 0 < abs(amount) <= CAP
    try:
        act_amount_check(amount=amount, signed=True)
    except ValidationError:
        assert not allowed
    else:
        assert allowed


def test_approval_needed_is_the_threshold_or_oneself(people: dict[str, Any]) -> None:
    staff, player = people["staff"], people["player"]
    assert not approval_needed(actor=staff, user=player, amount=ABOVE)
    assert not approval_needed(actor=staff, user=player, amount=-ABOVE)
    assert approval_needed(actor=staff, user=player, amount=ABOVE + 1)
    assert approval_needed(actor=staff, user=staff, amount=1)


@pytest.mark.parametrize("typed", ["10000000000000000000", "90000000000000000000000000", "100000.01", "-1", "1e19",
                                   "0"])
def test_the_form_answers_absurd_amounts_with_a_form_error(people: dict[str, Any], typed: str) -> None:
    client = Client()
    people["staff"].language = "en"
    people["staff"].save(update_fields=["language"])
    client.force_login(people["staff"])
    body = {"kind": "grant", "player": people["player"].username, "amount": typed, "reason": "r",
            "request_key": _issued_key(client)}
    response = client.post(URL, body)
    assert response.status_code == 200
    assert "amount" in response.context["form"].errors
    assert not StaffAction.objects.exists() and wallet_balance(user=people["player"]) == 0


def test_the_form_says_a_large_grant_waits_for_approval(people: dict[str, Any]) -> None:
    client = Client()
    people["staff"].language = "en"
    people["staff"].save(update_fields=["language"])
    client.force_login(people["staff"])
    body = {"kind": "grant", "player": people["player"].username, "amount": "5000.00", "reason": "vip",
            "request_key": _issued_key(client)}
    response = client.post(URL, body, follow=True)
    request = ApprovalRequest.objects.get()
    page = response.content.decode()
    assert "Waiting for a second staff member" in page and f"request #{request.pk}." in page
    assert wallet_balance(user=people["player"]) == 0
