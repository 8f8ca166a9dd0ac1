"""A closed table offers no seat: its page says "table closed" where Sit was, live when staff
close it under an open page and on a fresh load, and the lobby marks its row closed — at a
phone's size and a desktop's, in each language."""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import translation
from playwright.sync_api import expect

from accounts.models import User
from games.lobby import lobby_publish
from games.services.seating import table_close
from tests.browser.conftest import call
from tests.browser.helpers import text

pytestmark = pytest.mark.browser

SIZES = [pytest.param(375, 667, "zh-hans", id="phone-zh-hans"), pytest.param(1280, 800, "en", id="desktop-en"),
         pytest.param(375, 667, "zh-hant", id="phone-zh-hant")]


def _closed_notice(lang: str) -> str:
    with translation.override(lang):
        return text("err_closed", lang)


@pytest.mark.parametrize(("width", "height", "lang"), SIZES)
def test_a_table_closed_under_an_open_page_takes_away_sit_and_says_closed(
        player: Any, make_table: Any, width: int, height: int, lang: str) -> None:
    table = make_table("samgong", "all_compare")
    p = player("Ann", lang=lang, width=width, height=height)
    p.open(f"/tables/{table.pk}/")
    p.page.wait_for_selector("[data-testid=connection].conn-online")
    assert p.page.locator("[data-testid=join]").is_visible()
    staff = User.objects.create_user(username=f"staff-{lang}-{width}", password="x" * 12, is_staff=True)
    call(table_close, table_id=table.pk, actor=staff, reason="maintenance")
    notice = p.page.locator("[data-testid=table-closed]")
    notice.wait_for(state="visible")
    assert _closed_notice(lang) in notice.inner_text()
    assert p.page.locator("[data-testid=join]").count() == 0
    # Every seat's Sit button goes with that frame (each is an effect of its own, so it is waited for).
    expect(p.page.locator(".seat-free button:visible")).to_have_count(0)
    box = notice.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width  # on screen, no sideways scroll
    assert p.page.evaluate("() => document.documentElement.scrollWidth") <= width
    p.shot(f"table-closed-live-{lang}-{width}")

    p.open(f"/tables/{table.pk}/")  # a fresh load of the closed table: the page, not a 404
    p.page.wait_for_selector("[data-testid=table-closed]", state="visible")
    assert p.page.locator("[data-testid=join]").count() == 0
    assert not p.errors


@pytest.mark.parametrize(("width", "height", "lang"), SIZES)
def test_the_lobby_marks_a_closed_table_closed_instead_of_free_seats(
        player: Any, make_table: Any, width: int, height: int, lang: str) -> None:
    table = make_table("thirteen")
    p = player("Bo", lang=lang, width=width, height=height)
    p.open("/lobby/")
    p.page.wait_for_selector(".conn-online")
    row = p.page.locator(f".table-link[href$='/tables/{table.pk}/']")
    assert text("free_seats", lang, n=4) in row.inner_text()
    staff = User.objects.create_user(username=f"lobby-staff-{lang}-{width}", password="x" * 12, is_staff=True)
    call(table_close, table_id=table.pk, actor=staff, reason="maintenance")
    assert call(lobby_publish) >= 1  # the beat's task (every second; tests drive the timers)
    row.locator("[data-testid=lobby-table-closed]").wait_for(state="visible")
    assert text("table_closed", lang) in row.inner_text()
    assert text("free_seats", lang, n=4) not in row.inner_text()
    assert p.page.evaluate("() => document.documentElement.scrollWidth") <= width
    p.shot(f"lobby-table-closed-{lang}-{width}")
    assert not p.errors
