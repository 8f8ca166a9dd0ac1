"""Private rooms and watching in the browser, at a phone's size and a desktop's, in each language:
two friends open a room by its code and play a hand in it (an invited third player finds the
invitation on the lobby page); a watcher opens a public table from the lobby's Watch, sees the
count of watchers, and sits down with one tap. The room's steps are the screenshots of README.md
"Playing with friends" (scripts/screenshots.py)."""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import translation
from playwright.sync_api import expect

from games.models import Hand
from games.services.seating import seat_join
from history.models import HandRecord
from tables import ui_rooms
from tables.models import StakeLevel, Table
from tables.titles import room_heading
from tests.browser.conftest import call
from tests.browser.helpers import text
from tests.factories import ensure_stake_levels

pytestmark = pytest.mark.browser

SIZES = [pytest.param(375, 667, "zh-hans", id="phone-zh-hans"), pytest.param(1280, 800, "en", id="desktop-en"),
         pytest.param(375, 667, "zh-hant", id="phone-zh-hant")]


def room_text(key: str, lang: str, **params: Any) -> str:
    with translation.override(lang):
        value = str({**ui_rooms.ROOM, **ui_rooms.LOBBY_ROOMS}[key])
    for name, param in params.items():
        value = value.replace("{" + name + "}", str(param))
    return value


def room_heading_in(code: str, lang: str) -> str:
    with translation.override(lang):
        return room_heading(code)


def _shot(p: Any, step: str, width: int, lang: str) -> None:
    """A step of the room flow, saved to artifacts/ (the phone's 简体 and the desktop's English);
    scripts/screenshots.py copies them to docs/screenshots/ for README.md."""
    if (width, lang) in ((375, "zh-hans"), (1280, "en")):
        p.shot(f"room-{step}-{'phone' if width < 600 else 'desktop'}")


def _fits(p: Any, width: int) -> None:
    assert p.page.evaluate("() => document.documentElement.scrollWidth") <= width  # no sideways scroll


def _level(game: str, mode: str) -> StakeLevel:
    ensure_stake_levels()
    level = StakeLevel.objects.filter(game=game, mode=mode).order_by("unit").first()
    assert level is not None
    return level


@pytest.mark.parametrize(("width", "height", "lang"), SIZES)
def test_two_friends_open_a_room_by_its_code_and_play_a_hand(player: Any, width: int, height: int, lang: str) -> None:
    level = _level("samgong", "all_compare")
    owner = player("Ann", lang=lang, width=width, height=height)
    friend = player("Bo", lang=lang, width=width, height=height)
    third = player(f"Cy{width}{lang}", lang=lang, width=width, height=height)

    owner.open("/lobby/")
    owner.page.wait_for_selector(".conn-online")
    owner.page.select_option("[data-testid=room-level]", str(level.pk))
    _fits(owner, width)
    _shot(owner, "1-open", width, lang)
    owner.page.click("[data-testid=room-open]")
    owner.page.wait_for_selector("[data-testid=connection].conn-online")
    room = call(Table.objects.get, room_owner=owner.user)
    heading = owner.page.locator("[data-testid=table-heading]")
    assert heading.inner_text() == room_heading_in(str(room.room_code), lang)
    assert owner.page.input_value("[data-testid=room-link]").endswith(f"/rooms/{room.room_code}/")
    owner.page.click("[data-testid=join]")
    owner.page.wait_for_selector("[data-testid=my-table-money]")
    waiting = owner.page.locator("[data-testid=room-waiting]")
    waiting.wait_for(state="visible")
    assert waiting.inner_text() == room_text("room_waiting_start", lang, n=1, m=2)
    assert owner.page.locator("[data-testid=room-start]").is_disabled()  # one player: too few
    _fits(owner, width)
    _shot(owner, "2-room", width, lang)

    friend.open("/lobby/")
    friend.page.wait_for_selector(".conn-online")
    assert friend.page.locator(f".table-link[href$='/tables/{room.pk}/']").count() == 0  # never listed
    typed = str(room.room_code).lower()
    friend.page.fill("[data-testid=room-code-input]", f"{typed[:3]} {typed[3:]}")
    _shot(friend, "3-code", width, lang)
    friend.page.click("[data-testid=room-code-go]")
    friend.page.wait_for_selector("[data-testid=connection].conn-online")
    expect(friend.page.locator("[data-testid=table-heading]")).to_have_text(room_heading_in(str(room.room_code), lang))
    friend.page.click("[data-testid=join]")
    friend.page.wait_for_selector("[data-testid=my-table-money]")

    third.open("/lobby/")
    third.page.wait_for_selector(".conn-online")
    owner.page.fill("[data-testid=room-invite-name]", third.user.display_name)
    owner.page.click("[data-testid=room-invite]")
    notice = third.page.locator("[data-testid=room-invite-notice]")
    notice.wait_for(state="visible")  # live, over the lobby socket
    assert notice.inner_text().startswith(room_text("invite_from", lang, name="Ann", stake=level.name)[:4])
    third.page.click("[data-testid=room-invite-link]")
    third.page.wait_for_selector("[data-testid=connection].conn-online")
    third.page.locator("[data-testid=room-panel]").wait_for(state="visible")
    third.page.locator("[data-testid=watchers]").wait_for(state="visible")
    assert third.page.locator("[data-testid=watchers]").inner_text() == room_text("watchers", lang, n=1)

    start = owner.page.locator("[data-testid=room-start]")
    start.wait_for(state="visible")
    owner.page.wait_for_function("() => !document.querySelector('[data-testid=room-start]').disabled")
    _shot(owner, "4-start", width, lang)
    start.click()
    for p in (owner, friend):
        p.page.click("[data-testid=bet-1]", timeout=15_000)
    for p in (owner, friend):
        p.page.click("[data-testid=reveal]", timeout=15_000)
    for p in (owner, friend, third):
        p.page.wait_for_selector("[data-testid=showdown] [data-testid=result-0]", state="visible", timeout=20_000)
    _shot(owner, "5-hand", width, lang)
    hand = call(Hand.objects.get, table=room)
    assert hand.status == Hand.Status.SETTLED
    assert call(HandRecord.objects.filter(hand=hand).exists)
    for p in (owner, friend, third):
        _fits(p, width)
        assert not p.errors and not p.csp_violations


@pytest.mark.parametrize(("width", "height", "lang"), SIZES[:2])
def test_a_watcher_watches_from_the_lobby_and_sits_down_with_one_tap(
        player: Any, make_table: Any, width: int, height: int, lang: str) -> None:
    table = make_table("samgong", "all_compare")
    seated = player("Dee", lang=lang, width=width, height=height)
    call(seat_join, table_id=table.pk, user=seated.user, buy_in=table.stake_level.min_buy_in, request_id="s")
    seated.open(f"/tables/{table.pk}/")
    seated.page.wait_for_selector("[data-testid=connection].conn-online")

    watcher = player("Eve", lang=lang, width=width, height=height)
    watcher.open("/lobby/")
    watcher.page.wait_for_selector(".conn-online")
    watch = watcher.page.locator(f".table-link[href$='/tables/{table.pk}/'] [data-testid=lobby-watch]")
    assert watch.inner_text() == text("watch", lang)
    watch.click()
    watcher.page.wait_for_selector("[data-testid=connection].conn-online")
    for p in (seated, watcher):
        count = p.page.locator("[data-testid=watchers]")
        count.wait_for(state="visible")
        p.page.wait_for_function(
            "([n]) => document.querySelector('[data-testid=watchers]').textContent === n",
            arg=[room_text("watchers", lang, n=1)],
        )
    _fits(watcher, width)
    watcher.shot(f"watching-{lang}-{width}")
    watcher.page.locator(".seat-free button").first.click()  # one tap, the minimum buy-in
    watcher.page.wait_for_selector("[data-testid=my-table-money]")
    seated.page.wait_for_function(
        "([n]) => document.querySelector('[data-testid=watchers]').textContent === n",
        arg=[room_text("watchers", lang, n=0)],
    )
    assert not watcher.errors and not seated.errors
