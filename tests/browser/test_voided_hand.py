"""A hand the platform voids shows as voided on the table page — "Hand voided: every stake
returned" where the phase was, no showdown — with the player's table money as it was before
the deal; the player's history lists it as voided, and the player disputes it from there; at a
phone's size and a desktop's, in each language."""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import translation
from django.utils.translation import gettext

from games.services.hands import hand_start_if_ready, hand_void
from games.services.seating import seat_join
from tests.browser.conftest import call
from tests.browser.helpers import money, sit_down, text

pytestmark = pytest.mark.browser


def text_of(msgid: str, lang: str) -> str:
    """A server-rendered page's string in ``lang``."""
    with translation.override(lang):
        return gettext(msgid)

SIZES = [pytest.param(375, 667, "zh-hans", id="phone-zh-hans"), pytest.param(1280, 800, "en", id="desktop-en"),
         pytest.param(375, 667, "zh-hant", id="phone-zh-hant")]


@pytest.mark.parametrize(("width", "height", "lang"), SIZES)
def test_a_voided_hand_says_voided_on_the_table_page_and_returns_the_stakes(
        player: Any, make_table: Any, width: int, height: int, lang: str) -> None:
    table = make_table("samgong", "all_compare")
    p, other = player("Ann", lang=lang, width=width, height=height), player("Bo")
    sit_down(p, table)
    buy_in = table.stake_level.min_buy_in
    call(seat_join, table_id=table.pk, user=other.user, buy_in=buy_in, request_id=f"void-{lang}-{width}")
    hand = call(hand_start_if_ready, table_id=table.pk)
    assert hand is not None
    p.page.wait_for_selector("[data-testid=timer-box]", state="visible")
    assert call(hand_void, hand_id=hand.pk, reason="outage")
    phase = p.page.locator("[data-testid=phase].phase-voided")
    phase.wait_for(state="visible")
    assert phase.inner_text() == text("hand_voided", lang)
    assert p.page.locator("[data-testid=my-table-money]").inner_text().endswith(money(buy_in))
    assert p.page.evaluate("() => document.documentElement.scrollWidth") <= width
    p.shot(f"hand-voided-{lang}-{width}")

    p.open("/history/")  # the player's history keeps it, voided, with a way to dispute it
    row = p.page.locator("[data-testid=voided-hand]")
    row.wait_for(state="visible")
    assert f"#{hand.number}" in row.inner_text() and text_of("voided", lang) in row.inner_text()
    assert p.page.evaluate("() => document.documentElement.scrollWidth") <= width
    p.shot(f"history-voided-{lang}-{width}")
    row.locator("[data-testid=dispute-voided]").click()
    p.page.wait_for_url(f"**/disputes/new/{hand.pk}/")
    p.page.fill("textarea", "The hand stopped and was voided.")
    p.page.click("section.card form button[type=submit]")
    p.page.wait_for_url("**/disputes/*/")
    assert text_of("voided", lang) in p.page.inner_text("main")
    p.shot(f"dispute-voided-{lang}-{width}")
    assert not p.errors
