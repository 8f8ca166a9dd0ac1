"""A private room's page says it is a room, by its code, with the copy-link button beside it; an
invitation reaches the invitee on whatever page they are (a table, the wallet) with a link into
the room and a way to dismiss it; at a phone's size and a desktop's, in each language."""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import translation

from games.services.seating import seat_join
from tables import rooms, ui_rooms
from tables.models import StakeLevel
from tables.titles import room_heading
from tests.browser.conftest import call
from tests.factories import ensure_stake_levels

pytestmark = pytest.mark.browser

SIZES = [pytest.param(375, 667, "zh-hans", id="phone-zh-hans"), pytest.param(1280, 800, "en", id="desktop-en"),
         pytest.param(375, 667, "zh-hant", id="phone-zh-hant")]


def _said(key: str, lang: str, **params: Any) -> str:
    with translation.override(lang):
        value = str({**ui_rooms.ROOM, **ui_rooms.LOBBY_ROOMS}[key])
    for name, param in params.items():
        value = value.replace("{" + name + "}", str(param))
    return value


def _heading(code: str, lang: str) -> str:
    with translation.override(lang):
        return room_heading(code)


def _room(owner: Any) -> Any:
    ensure_stake_levels()
    level = StakeLevel.objects.filter(game="samgong", mode="all_compare").order_by("unit").first()
    assert level is not None
    return rooms.room_open(owner=owner, level_id=level.pk)


def _fits(p: Any, width: int) -> None:
    assert p.page.evaluate("() => document.documentElement.scrollWidth") <= width  # no sideways scroll


@pytest.mark.parametrize(("width", "height", "lang"), SIZES)
def test_a_room_s_page_is_headed_by_its_code_and_copies_its_link(player: Any, width: int, height: int,
                                                                   lang: str) -> None:
    owner = player("Ann", lang=lang, width=width, height=height)
    owner.page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    room = call(_room, owner.user)
    owner.open(f"/tables/{room.pk}/")
    owner.page.wait_for_selector("[data-testid=connection].conn-online")
    heading = owner.page.locator("[data-testid=table-heading]")
    assert heading.inner_text() == _heading(str(room.room_code), lang)
    copy = owner.page.locator(".table-heading [data-testid=room-copy]")  # with the code, at the page's top
    assert copy.is_visible() and copy.inner_text() == _said("room_copy", lang)
    title = heading.bounding_box()
    assert title is not None and title["height"] < 40  # the heading on one line, even on a phone
    owner.shot(f"room-heading-{lang}-{width}")
    copy.click()
    owner.page.locator("[data-testid=toast-text]", has_text=_said("room_copied", lang)).wait_for(state="visible")
    assert owner.page.evaluate("() => navigator.clipboard.readText()").endswith(f"/rooms/{room.room_code}/")
    _fits(owner, width)
    assert not owner.errors and not owner.csp_violations


@pytest.mark.parametrize(("width", "height", "lang"), SIZES[:2])
def test_a_player_at_a_table_sees_an_invitation_and_its_link_opens_the_room(
        player: Any, make_table: Any, width: int, height: int, lang: str) -> None:
    owner = player("Ann", lang=lang, width=width, height=height)
    guest = player("Bo", lang=lang, width=width, height=height)
    table = make_table("thirteen")
    call(seat_join, table_id=table.pk, user=guest.user, buy_in=table.stake_level.min_buy_in, request_id="g")
    guest.open(f"/tables/{table.pk}/")
    guest.page.wait_for_selector("[data-testid=connection].conn-online")
    room = call(_room, owner.user)
    call(rooms.room_invite, room_id=room.pk, inviter=owner.user, invitee=guest.user)
    notice = guest.page.locator("[data-testid=site-invite]")
    notice.wait_for(state="visible")  # live, over the table's own socket
    assert notice.inner_text().startswith(_said("invite_from", lang, name="Ann", stake=room.stake_level.name)[:4])
    link = notice.locator("[data-testid=site-invite-open]")
    assert link.inner_text() == _said("invite_open", lang) and link.is_visible()
    _fits(guest, width)
    guest.shot(f"room-invited-at-table-{lang}-{width}")
    link.click()
    guest.page.wait_for_url(f"**/tables/{room.pk}/")
    guest.page.wait_for_selector("[data-testid=connection].conn-online")
    assert guest.page.locator("[data-testid=table-heading]").inner_text() == _heading(str(room.room_code), lang)
    guest.page.locator(".seat-free button").first.click()  # the pass came with the invitation: one tap sits
    guest.page.wait_for_selector("[data-testid=my-table-money]")
    assert not guest.errors and not guest.csp_violations


@pytest.mark.parametrize(("width", "height", "lang"), SIZES[:2])
def test_an_invitation_reaches_a_page_without_a_table_and_can_be_dismissed(
        player: Any, width: int, height: int, lang: str) -> None:
    owner = player("Ann", lang=lang, width=width, height=height)
    guest = player("Cy", lang=lang, width=width, height=height)
    guest.open("/wallet/")
    guest.page.wait_for_load_state("networkidle")
    room = call(_room, owner.user)
    call(rooms.room_invite, room_id=room.pk, inviter=owner.user, invitee=guest.user)
    notice = guest.page.locator("[data-testid=site-invite]")
    notice.wait_for(state="visible")  # over the lobby socket the page opened for its notices
    assert notice.locator("[data-testid=site-invite-open]").get_attribute("href") == f"/tables/{room.pk}/"
    _fits(guest, width)
    guest.page.click("[data-testid=site-invite-dismiss]")
    notice.wait_for(state="detached")
    assert not guest.errors and not guest.csp_violations
