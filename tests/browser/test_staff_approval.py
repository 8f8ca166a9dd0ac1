"""Four eyes in admin, as two staff members use it: one grants more coins than they may alone
and reads that it waits for approval; a second finds it among the waiting requests, approves it
with a reason, and the coins arrive. In each staff member's language, at phone (375×667) and
desktop (1280×800) sizes."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import Permission
from django.utils import translation

from accounts.models import User
from operations.models import ApprovalRequest
from wallet.selectors import wallet_balance

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WAITING = "Waiting for a second staff member's approval: request #%(id)s."
SIZES = [(("zh-hans", 375, 667), ("en", 1280, 800)), (("en", 1280, 800), ("zh-hant", 375, 667))]


def _staff(player: Any, name: str, lang: str, width: int, height: int) -> Any:
    member = player(name, lang=lang, width=width, height=height, coins=1)
    User.objects.filter(pk=member.user.pk).update(is_staff=True)
    member.user.user_permissions.add(*Permission.objects.filter(
        content_type__app_label="operations", codename__in=["grant_coins", "view_staffaction"]))
    return member


def _fits(member: Any, width: int) -> None:
    assert member.page.evaluate("() => document.documentElement.scrollWidth") <= width


@pytest.mark.parametrize(("asker_at", "approver_at"), SIZES)
def test_a_large_grant_waits_for_a_second_staff_member_who_approves_it(
    player: Any, asker_at: tuple[str, int, int], approver_at: tuple[str, int, int]
) -> None:
    receiver = player("阿强", coins=1)
    asker, approver = _staff(player, "审核甲", *asker_at), _staff(player, "审核乙", *approver_at)

    asker.open("/admin/operations/staffaction/act/")
    asker.page.select_option("select[name=kind]", "grant")
    asker.page.fill("input[name=player]", receiver.user.username)
    asker.page.fill("input[name=amount]", "5000.00")
    asker.page.fill("textarea[name=reason]", "tournament prize")
    asker.page.click("input[type=submit]")
    message = asker.page.locator(".messagelist .success")
    message.wait_for(state="visible")
    request = ApprovalRequest.objects.get()
    with translation.override(asker_at[0]):
        assert message.inner_text().strip() == translation.gettext(WAITING) % {"id": request.pk}
    assert wallet_balance(user=receiver.user) == 1
    _fits(asker, asker_at[1])
    asker.shot(f"approval-asked-{asker_at[0]}-{asker_at[1]}")

    asker.open(f"/admin/operations/approvalrequest/{request.pk}/decide/")
    assert asker.page.locator("input[name=decision]").count() == 0  # never one's own request

    approver.open("/admin/operations/staffaction/")
    approver.page.click("a[href$='approvalrequest/?status__exact=pending']")
    approver.page.click(f"a[href$='approvalrequest/{request.pk}/decide/']")
    approver.page.check("input[name=decision][value=approve]")
    approver.page.fill("textarea[name=reason]", "results checked")
    _fits(approver, approver_at[1])
    approver.shot(f"approval-decide-{approver_at[0]}-{approver_at[1]}")
    approver.page.click("input[type=submit]")
    approver.page.locator(".messagelist .success").wait_for(state="visible")

    request.refresh_from_db()
    assert request.status == "approved" and request.decided_by_id == approver.user.pk
    assert wallet_balance(user=receiver.user) == 1 + 500_000
    for member in (asker, approver):
        assert member.errors == [] and member.csp_violations == []
