"""A case in Django admin, worked end to end by a case worker — investigate, confiscate coins from
a linked account, close as actioned — and read by an auditor, who gets no form; the player page
shows the player's net, limits, linked accounts and cases. At a phone's size and a desktop's, in
each language."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import Permission
from django.db.models import Q
from django.utils import timezone, translation
from django.utils.translation import gettext

from accounts.roles import roles_sync
from games.services.seating import seat_join
from integrity.models import Case, CaseAction, PairSignal
from integrity.services.cases import cases_open_for_flags
from responsible.errors import LimitRefused
from responsible.services import exclusion_start
from tests.browser.conftest import call
from tests.factories import funded_user, table_at
from wallet.selectors import wallet_balance

pytestmark = pytest.mark.browser

SIZES = [pytest.param(375, 667, "zh-hans", id="phone-zh-hans"), pytest.param(1280, 800, "en", id="desktop-en"),
         pytest.param(375, 667, "zh-hant", id="phone-zh-hant")]


def _t(lang: str, msgid: str) -> str:
    with translation.override(lang):
        return gettext(msgid)


def _case(tag: str) -> tuple[Case, Any, Any]:
    dumper, receiver = funded_user(f"dumper-{tag}", 50_000), funded_user(f"receiver-{tag}", 90_000)
    lo, hi = sorted((dumper, receiver), key=lambda u: u.pk)
    now = timezone.now()
    pair = PairSignal.objects.create(a=lo, b=hi, hands=40, flow_net=9_000, flow_sq=90_000, first_at=now,
                                     last_at=now, flags=["flow"], flagged_at=now)
    [case] = cases_open_for_flags(pairs=[pair])
    return case, dumper, receiver


def _refused_by_own_limits(user: Any, *, buy_in: int) -> None:
    """The player excludes themself, then tries to sit down: the refusal is kept for staff."""
    def refused() -> None:
        exclusion_start(user=user, period="1d")
        table = table_at("thirteen")
        with pytest.raises(LimitRefused):
            seat_join(table_id=table.pk, user=user, buy_in=buy_in, request_id="refused")
    call(refused)


def _work(page: Any, step: str, **fields: str) -> None:
    form = page.locator("#case-work")
    form.locator("select[name=step]").select_option(step)
    for name, value in fields.items():
        control = form.locator(f"[name={name}]")
        if control.evaluate("e => e.tagName") == "SELECT":
            control.select_option(label=value)
        else:
            control.fill(value)
    form.locator("input[type=submit]").click()
    page.wait_for_load_state()


@pytest.mark.parametrize(("width", "height", "lang"), SIZES)
def test_a_case_worker_investigates_confiscates_and_closes_a_case_as_actioned(
        player: Any, width: int, height: int, lang: str) -> None:
    case, _dumper, receiver = _case(f"{lang}-{width}")
    p = player("Wen", lang=lang, width=width, height=height)
    p.user.is_staff = True
    p.user.save()
    p.user.user_permissions.set(Permission.objects.filter(
        Q(content_type__app_label="integrity", codename__in=["view_case", "change_case", "confiscate_coins"])))
    p.open(f"/admin/integrity/case/{case.pk}/change/")
    assert p.page.locator("#case-work").is_visible()
    assert _t(lang, "coins flow one way") in p.page.content()
    _work(p.page, "investigate")
    p.page.get_by_text(_t(lang, "investigating"), exact=True).first.wait_for()
    _work(p.page, "confiscate", account=receiver.username, amount="40000", text="dumped coins")
    p.page.locator(".messagelist .success").wait_for()
    assert wallet_balance(user=receiver) == 50_000
    assert CaseAction.objects.get(case=case).ledger_transaction is not None
    _work(p.page, "actioned", text="coins taken back")
    p.page.get_by_text(_t(lang, "closed: actioned"), exact=True).first.wait_for()
    case.refresh_from_db()
    assert case.status == Case.Status.ACTIONED and case.closed_by == p.user
    p.shot(f"integrity-case-{lang}-{width}")
    _refused_by_own_limits(receiver, buy_in=123_456)
    p.open(f"/admin/integrity/player/{receiver.pk}/")
    for label in ("lifetime net", "commission paid", "Limits", "Linked accounts", "Cases",
                  "Refused by the player's limits"):
        assert _t(lang, label) in p.page.content(), label
    refusal = p.page.locator("#integrity-player-refusals tbody tr").first
    assert _t(lang, "Self-exclusion") in refusal.inner_text() and "1,234.56" in refusal.inner_text()
    assert p.page.locator(f"#integrity-player-cases a[href$='/{case.pk}/change/']").is_visible()
    scroll = p.page.evaluate("document.documentElement.scrollWidth")
    assert scroll <= max(width, 1280)
    assert not p.errors and not p.csp_violations


@pytest.mark.parametrize(("width", "height", "lang"), SIZES[:2])
def test_an_auditor_reads_a_case_and_gets_no_form_to_work_it(player: Any, width: int, height: int,
                                                           lang: str) -> None:
    case, _dumper, _receiver = _case(f"aud-{lang}-{width}")
    p = player("Aud", lang=lang, width=width, height=height)
    p.user.is_staff = True
    p.user.save()
    p.user.groups.add(roles_sync())
    p.open(f"/admin/integrity/case/{case.pk}/change/")
    assert _t(lang, "coins flow one way") in p.page.content()
    assert p.page.locator("#case-work").count() == 0
    p.open("/admin/integrity/case/")
    assert p.page.locator(f"a[href$='/{case.pk}/change/']").first.is_visible()


@pytest.mark.parametrize(("width", "height", "lang"), SIZES)
def test_an_auditor_reads_a_pairs_favour_and_bets_flags_as_their_reasons(player: Any, width: int, height: int,
                                                                        lang: str) -> None:
    giver, banker = funded_user(f"giver-{lang}-{width}", 1), funded_user(f"banker-{lang}-{width}", 1)
    lo, hi = sorted((giver, banker), key=lambda u: u.pk)
    now = timezone.now()
    PairSignal.objects.create(a=lo, b=hi, hands=120, info_hands=80, favour_ab_net=90_000, favour_ab_sq=600_000_000,
                              bet_ab_hands=40, bet_ab_net=-40_000, bet_ab_sq=50_000_000, first_at=now, last_at=now,
                              flags=["bets", "favour"], flagged_at=now)
    p = player("Aud", lang=lang, width=width, height=height)
    p.user.is_staff = True
    p.user.save()
    p.user.groups.add(roles_sync())
    reasons = [_t(lang, "bets against the cards when the other banks"), _t(lang, "play below the cards favours one player")]
    p.open("/admin/integrity/")
    flagged = p.page.locator("#integrity-flagged")
    assert all(r in flagged.inner_text() for r in reasons)
    p.shot(f"integrity-flags-{lang}-{width}")
    flagged.get_by_role("link", name=lo.username).click()
    p.page.wait_for_load_state()
    linked = p.page.locator("#integrity-player-linked")
    assert linked.is_visible() and all(r in linked.inner_text() for r in reasons)
    partners = p.page.locator("#integrity-player-partners")
    assert _t(lang, "play favouring one player") in (partners.text_content() or "")
    # the favour test, 90,000 / √600,000,000; the bets test with no other banker, −40,000 / √50,000,000
    assert "3.67" in partners.inner_text() and "-5.66" in partners.inner_text()
    assert p.page.evaluate("document.documentElement.scrollWidth") <= max(width, 1280)
    assert not p.errors and not p.csp_violations
