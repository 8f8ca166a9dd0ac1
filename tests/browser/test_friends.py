"""Friends in the browser, on a desktop and on a phone (375×667): add a friend by name, the
friend accepts; the lobby shows the friend online at their table; a seated player invites them
and the friend's lobby shows the invitation; the friend blocks the player, who loses them from
their list and cannot ask again."""

from __future__ import annotations

from typing import Any

import pytest

from games.services.seating import seat_join
from tests.browser.conftest import call

pytestmark = pytest.mark.browser
SIZES = {"desktop": (1280, 800), "phone": (375, 667)}


def _fits(page: Any, selector: str) -> None:
    box = page.locator(selector).first.bounding_box()
    width = page.viewport_size["width"]
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width + 1, (selector, box, width)
    assert page.evaluate("() => document.documentElement.scrollWidth") <= width + 1


def _friend(page: Any, name: str) -> Any:
    return page.locator("[data-testid=friend]", has=page.locator(f"[data-testid=friend-name]:text-is('{name}')"))


@pytest.mark.parametrize("size", SIZES)
def test_add_accept_see_online_invite_and_block(player: Any, make_table: Any, size: str) -> None:
    width, height = SIZES[size]
    ann = player("Ann", lang="en", width=width, height=height)
    bo = player("阿博", lang="zh-hans", width=width, height=height)
    bo_table, ann_table = make_table("thirteen"), make_table("thirteen")

    ann.open("/friends/")
    _fits(ann.page, "[data-testid=friend-add]")
    ann.page.fill("[data-testid=friend-add-name]", "阿博")
    ann.page.click("[data-testid=friend-add]")
    ann.page.wait_for_selector("main > ul.messages li.success:has-text('Friend request sent.')")

    bo.open("/friends/")
    bo.page.click("[data-testid=friend-incoming] [data-testid=friend-accept]")
    bo.page.wait_for_selector("main > ul.messages li.success:has-text('您与对方现在是好友了。')")
    assert _friend(bo.page, "Ann").count() == 1
    bo.shot(f"friends-accepted-zh-hans-{size}")

    # bo sits at a table and keeps the lobby open: online, at that table
    call(seat_join, table_id=bo_table.pk, user=bo.user, buy_in=bo_table.stake_level.min_buy_in, request_id="bo-1")
    bo.open("/lobby/")
    bo.page.wait_for_selector(".conn-online")
    call(seat_join, table_id=ann_table.pk, user=ann.user, buy_in=ann_table.stake_level.min_buy_in, request_id="ann-1")
    ann.open("/lobby/")
    row = _friend(ann.page, "阿博")
    row.wait_for()
    assert row.get_attribute("data-online") == "1"
    where = row.locator("[data-testid=friend-table]")
    assert where.get_attribute("href") == f"/tables/{bo_table.pk}/"
    assert where.inner_text().startswith(f"at table {bo_table.pk} · ")
    _fits(ann.page, "[data-testid=friends-panel]")
    ann.shot(f"friends-lobby-online-en-{size}")

    row.locator("[data-testid=friend-invite]").click()
    ann.page.wait_for_selector("main > ul.messages li.success:has-text('Invitation sent.')")
    notice = bo.page.locator("[data-testid=friend-invite-notice]")
    notice.wait_for()
    assert notice.inner_text().startswith(f"Ann 邀请您到其牌桌 {ann_table.pk}。")
    assert notice.locator("[data-testid=friend-invite-join]").get_attribute("href") == f"/tables/{ann_table.pk}/"
    _fits(bo.page, "[data-testid=friend-invite-notice]")
    bo.shot(f"friends-invited-zh-hans-{size}")

    bo.open("/friends/")
    _friend(bo.page, "Ann").locator("[data-testid=friend-block]").click()
    bo.page.wait_for_selector("main > ul.messages li.success:has-text('已屏蔽')")
    assert "Ann" in bo.page.locator("[data-testid=friend-blocked]").inner_text()

    ann.open("/friends/")
    assert _friend(ann.page, "阿博").count() == 0  # bo vanished from ann's list
    ann.page.fill("[data-testid=friend-add-name]", "阿博")
    ann.page.click("[data-testid=friend-add]")
    ann.page.wait_for_selector("main > ul.messages li.error:has-text('No player is called 阿博.')")
    ann.shot(f"friends-blocked-en-{size}")
    assert not ann.errors and not bo.errors and not ann.csp_violations and not bo.csp_violations
