"""A player with a table open self-excludes from another page of the same browser: within a
second the table page says so, in the player's language, at phone and desktop sizes, and the
seat is left, its table money back in the wallet (docs/RESPONSIBLE_PLAY.md "Stopping play")."""

from __future__ import annotations

import time

import pytest
from django.utils import translation

from accounts.sockets import STOP_MESSAGES
from tables.models import Seat
from tests.browser.conftest import ARTIFACTS, call
from wallet.selectors import wallet_balance

pytestmark = pytest.mark.browser


@pytest.mark.parametrize(("lang", "size"), [("zh-hant", (375, 667)), ("en", (1280, 800))])
def test_the_table_page_tells_a_player_who_self_excludes_in_another_tab(player, make_table, lang, size):
    table = make_table("thirteen")
    me = player("阿明", lang=lang, width=size[0], height=size[1])
    coins = call(wallet_balance, user=me.user)
    me.open(f"/tables/{table.pk}/")
    me.page.wait_for_selector("[data-testid=connection].conn-online")
    me.page.click("[data-testid=join]")
    me.page.wait_for_selector("[data-testid=my-table-money]")
    assert call(Seat.objects.filter(table=table, user=me.user).exists)

    other_tab = me.page.context.new_page()
    other_tab.goto(me.base + "/responsible/")
    other_tab.select_option("select[name=period]", "1d")
    other_tab.check("input[name=confirm]")
    start = time.monotonic()
    other_tab.click("button[name=exclude]")
    told = me.page.locator("[data-testid=stopped]")
    told.wait_for(state="visible", timeout=5_000)
    shown = time.monotonic() - start

    with translation.override(lang):
        expected = translation.gettext(STOP_MESSAGES["self_excluded"])
    assert told.inner_text() == expected
    assert shown < 3.0, shown  # the page's form post and redirect included
    box = told.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= size[0]  # on screen, phone too
    me.page.wait_for_selector("[data-testid=join]")  # the seat is gone: the page offers a seat again
    assert not call(Seat.objects.filter(table=table, user=me.user).exists)
    assert call(wallet_balance, user=me.user) == coins
    me.page.click("[data-testid=join]")  # sitting down again is refused, and said why
    me.page.locator("[data-testid=toast]").last.wait_for()
    assert not call(Seat.objects.filter(table=table, user=me.user).exists)
    assert not me.errors and not me.csp_violations
    ARTIFACTS.mkdir(exist_ok=True)
    me.page.screenshot(path=str(ARTIFACTS / f"stopped-{lang}-{size[0]}.png"))
