"""The lobby in the browser: games and stake levels, tables updated live, Play seats you."""

from __future__ import annotations

import pytest

from games.lobby import lobby_publish
from games.services.seating import seat_join
from tests.browser.conftest import call
from tests.browser.helpers import text

pytestmark = pytest.mark.browser


def test_the_lobby_lists_tables_live_and_play_opens_a_table(player, make_table):
    table = make_table("thirteen")
    watcher, zh = player("Erin", lang="en"), player("阿发")
    watcher.open("/lobby/")
    watcher.page.wait_for_selector(".conn-online")
    row = watcher.page.locator(f".table-link[href$='/tables/{table.pk}/']")
    assert row.locator(".table-name").inner_text() == text("table_no", "en", n=table.pk)  # never a stored name
    assert row.inner_text().count(text("free_seats", "en", n=4))
    call(seat_join, table_id=table.pk, user=zh.user, buy_in=table.stake_level.min_buy_in, request_id="lobby-1")
    assert call(lobby_publish) >= 1  # the beat's task (every second; tests drive the timers)
    watcher.page.wait_for_selector(f".table-link:has-text('{zh.user.display_name}')")
    assert text("free_seats", "en", n=3) in row.inner_text()
    watcher.shot("lobby-en")

    zh.open("/lobby/")
    zh.page.wait_for_selector(".conn-online")
    zh.page.click(f"article[data-level='{table.stake_level.pk}'] button[type=submit]")
    zh.page.wait_for_url(f"**/tables/{table.pk}/")
    zh.page.wait_for_selector("[data-testid=my-table-money]")
    zh.shot("lobby-play-zh-hans")
    assert not watcher.errors and not zh.errors
