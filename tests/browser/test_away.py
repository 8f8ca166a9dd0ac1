"""A player who was away sees on the table page that they sit out because of it, and comes back
with one tap (docs/RULES.md "Away players"); a seat stood up while away shows on "My hands" with
its coins back and its time. On a phone (375×667) and a desktop (1280×800), in each language."""

from __future__ import annotations

import time
from typing import Any

import pytest
from django.utils import timezone, translation
from django.utils.translation import gettext
from playwright.sync_api import expect

from games.models import Hand
from games.presence import presence_absent
from games.services.away import seats_away_stand_up
from games.services.hands import hand_start_if_ready
from games.services.seating import seat_join, seat_sit_out
from tables import titles
from tables.models import Seat
from tests.browser.conftest import Player, call
from tests.browser.helpers import sit_down, text
from tests.browser.test_rules_and_waiting import inside_screen
from tests.factories import funded_user, hand_time_out
from wallet.money import format_coins

pytestmark = pytest.mark.browser

CASES = [(375, 667, "zh-hans"), (1280, 800, "en"), (375, 667, "zh-hant")]


def _wait_gone(table_id: int, user_id: int) -> None:
    """Until the server has heard the socket close (before any clock is moved)."""
    end = time.monotonic() + 10
    while not presence_absent([(table_id, user_id)], time.time(), 3600):
        assert time.monotonic() < end, "the closed socket was never heard of"
        time.sleep(0.02)  # polling for the event, not a fixed wait


def _status(table_id: int, user_id: int) -> str:
    return Seat.objects.get(table_id=table_id, user_id=user_id).status


@pytest.mark.parametrize(("width", "height", "lang"), CASES, ids=[f"{w}x{h}-{lang}" for w, h, lang in CASES])
def test_a_player_who_was_away_sees_they_sit_out_and_comes_back_with_one_tap(
        player: Any, make_table: Any, width: int, height: int, lang: str) -> None:
    table = make_table("thirteen")
    me = player("阿丽", lang=lang, width=width, height=height)
    other = funded_user(f"other_{table.pk}", table.stake_level.min_buy_in * 3, display_name="Bo")
    call(seat_join, table_id=table.pk, user=other, buy_in=table.stake_level.min_buy_in * 2, request_id="bo")
    sit_down(me, table)
    hand = call(hand_start_if_ready, table_id=table.pk) or Hand.objects.get(table=table, status=Hand.Status.ACTIVE)
    me.page.wait_for_selector("[data-testid=row-front]")  # dealt in
    me.page.close()  # the tab closes in the middle of the hand
    _wait_gone(table.pk, me.user.pk)
    assert call(hand_time_out, hand.pk, [other.pk]).status == Hand.Status.SETTLED
    assert call(_status, table.pk, me.user.pk) == Seat.Status.AWAY

    me = Player(me.user, me.page.context.new_page(), me.base)  # the player opens the table again
    me.open(f"/tables/{table.pk}/")
    note = me.page.locator("[data-testid=away-note]")
    expect(note).to_have_text(text("away_note", lang, m=5))
    back = me.page.locator("[data-testid=come-back]")
    expect(back).to_have_text(text("come_back", lang))
    back.scroll_into_view_if_needed()
    inside_screen(me.page, "[data-testid=come-back]", f"{width}x{height}")  # no sideways scroll either
    me.shot(f"away-{width}x{height}-{lang}")
    back.click()  # one tap
    expect(note).to_be_hidden()
    expect(me.page.get_by_role("button", name=text("sit_out", lang))).to_be_visible()
    assert call(_status, table.pk, me.user.pk) == Seat.Status.PLAYING
    following = call(hand_start_if_ready, table_id=table.pk) or Hand.objects.filter(table=table).latest("number")
    assert following.number == hand.number + 1 and me.user.pk in {p["user"] for p in following.players}
    assert not me.errors


def _stood_up_away(table_id: int, user: Any, buy_in: int) -> None:
    """The player sits down, sits out, and the sweeper's step stands the seat up (away)."""
    seat_join(table_id=table_id, user=user, buy_in=buy_in, request_id=f"away-{user.pk}")
    seat_sit_out(table_id=table_id, user=user, out=True)
    assert seats_away_stand_up(table_id=table_id, due=timezone.now()) == 1


@pytest.mark.parametrize(("width", "height", "lang"), CASES, ids=[f"{w}x{h}-{lang}" for w, h, lang in CASES])
def test_a_player_stood_up_while_away_finds_it_in_my_hands_with_the_coins_back_and_its_time(
        player: Any, make_table: Any, width: int, height: int, lang: str) -> None:
    table = make_table("thirteen")
    me = player("阿丽", lang=lang, width=width, height=height)
    buy_in = table.stake_level.min_buy_in * 2 + 5
    call(_stood_up_away, table.pk, me.user, buy_in)

    me.open("/history/")
    row = me.page.locator("[data-testid=away-stand-up]")
    expect(row).to_have_count(1)
    with translation.override(lang):
        words = gettext("Stood up (away) from %(table)s · %(coins)s coins back to your wallet") % {
            "table": titles.table_number(table.pk), "coins": format_coins(buy_in, grouping=True)}
        heading = gettext("Stood up while away")
    assert (words.startswith("因")) == (lang != "en")  # translated
    expect(row.locator("td").nth(1)).to_have_text(words)
    expect(me.page.locator("[data-testid=away-stand-ups] h2")).to_have_text(heading)
    assert row.locator("time").get_attribute("datetime")  # when, shown in the viewer's time zone
    row.scroll_into_view_if_needed()
    inside_screen(me.page, "[data-testid=away-stand-up]", f"{width}x{height}")  # no sideways scroll either
    me.shot(f"away-history-{width}x{height}-{lang}")
    assert not me.errors and not me.csp_violations
