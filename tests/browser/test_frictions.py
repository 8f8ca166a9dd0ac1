"""The small things a player used to the popular apps expects, in the page: numbers that add up
(the trio's comparisons make up the total; a leave is called leaving), one message per refusal
with its coins as the pages write them, the seconds to the next hand, a note when the server
played your turn, rows that survive closing the tab, and at 375 px a history table that keeps
"Hand 20" on one line and a top bar that keeps the name and "Log out" in view."""

from __future__ import annotations

import re
import time

import pytest
from django.utils import timezone, translation
from playwright.sync_api import expect

from games.adapters import engine
from games.models import Hand
from games.services.hands import hand_act, hand_expire, hand_start_if_ready
from games.services.seating import seat_join
from responsible.selectors import play_refusal
from responsible.services import exclusion_start
from tests.browser.conftest import call
from tests.browser.helpers import signed, sit_down, text, wait_showdown
from tests.factories import hand_play_out
from wallet.errors import BelowMinimumBuyIn, InsufficientFunds

pytestmark = pytest.mark.browser

PHONE, DESKTOP = (375, 667), (1280, 800)
COINS = re.compile(r"[+-]?[\d,]+(?:\.\d\d)?")


def minor(shown: str) -> int:
    """A signed amount as the pages write it ("+1,234.5" is never written: "+1,234.50") in minor units."""
    match = COINS.fullmatch(shown.strip())
    assert match, shown
    value = shown.strip().replace(",", "").lstrip("+")
    whole, _, cents = value.lstrip("-").partition(".")
    amount = int(whole) * 100 + int(cents or 0)
    return -amount if value.startswith("-") else amount


def test_a_trio_leaver_is_called_a_leaver_and_every_players_lines_add_up_to_the_total(player, make_table, settings):
    settings.GAMES_NEXT_HAND_DELAY = 60  # the pause outlasts the checks, so its seconds show throughout
    table = make_table("thirteen_trio")
    leaver = player("阿丽", width=PHONE[0], height=PHONE[1])
    others = [player("Bob", lang="en"), player("小凯", lang="zh-hant")]
    players = [leaver, *others]
    for p in players:
        sit_down(p, table)
    hand = call(hand_start_if_ready, table_id=table.pk)
    assert hand is not None
    leaver.page.wait_for_selector("[data-testid=board]", state="visible")
    expect(leaver.page.locator("[data-testid=timer-box]")).to_be_visible()

    # Leaving mid-set: confirmed, the board and the clock go away at once, and one message says so.
    leaver.page.click("[data-testid=leave]")
    leaver.page.click("[data-testid=modal-ok]")
    expect(leaver.page.locator("[data-testid=leaving-note]")).to_be_visible()
    expect(leaver.page.locator("[data-testid=board]")).to_be_hidden()
    expect(leaver.page.locator("[data-testid=timer-box]")).to_be_hidden()
    expect(leaver.page.locator("[data-testid=toast]")).to_have_count(1)

    hand = call(hand_play_out, Hand.objects.get(pk=hand.pk), [p.user for p in players])
    result = hand.result
    seat_of_leaver = hand.seat_of(leaver.user.pk)
    assert result["penalty"]["seat"] == seat_of_leaver and result["penalty"]["left"] is True
    for p, lang in zip(players, ["zh-hans", "en", "zh-hant"], strict=True):
        wait_showdown(p.page)
        page = p.page
        me = hand.seat_of(p.user.pk)
        badge = page.locator(f"[data-testid=result-{seat_of_leaver}] [data-testid=penalty]")
        expect(badge).to_have_text(text("penalty_left", lang) + " " + signed(result["penalty"]["coins"][seat_of_leaver]))
        showdown = page.locator("[data-testid=showdown]").inner_text()
        for word in ("掉线", "断线", "斷線", "Disconnect"):
            assert word not in showdown, (lang, word)
        # the comparisons: every line of the total, and the total, which is the result's
        total = page.locator("[data-testid=pair-total-coins]")
        expect(total).to_have_text(signed(result["coins"][me]))
        lines = page.locator(".pairs .pair:not(.pair-total) [data-testid=pair-coins]:visible")
        shown = [minor(lines.nth(i).inner_text()) for i in range(lines.count())]
        assert sum(shown) == result["coins"][me], (lang, shown, result)
        penalty_line = page.locator(".pairs [data-kind=penalty]")
        expect(penalty_line).to_have_count(1)
        expect(penalty_line).to_contain_text(text("penalty_left", lang))
        # and the seconds to the next hand
        expect(page.locator("[data-testid=next-hand]")).to_have_text(
            re.compile(re.escape(text("next_hand_in", lang, s="@")).replace("@", r"\d+")))
        assert not p.errors

    leaver.open(f"/history/hands/{hand.pk}/")
    replay = leaver.page.locator("main").text_content() or ""  # every step, shown one at a time
    assert "离桌" in replay and "断线" not in replay
    leaver.shot("trio-leaver-zh-hans-phone")


def test_the_server_playing_your_turn_is_said_and_placed_rows_survive_closing_the_tab(player, make_table):
    table = make_table("thirteen", arrange_seconds=6)
    alice = player("阿丽", width=PHONE[0], height=PHONE[1])
    bob = player("Bob", lang="en")
    for p in (alice, bob):
        sit_down(p, table)
    hand = call(hand_start_if_ready, table_id=table.pk)
    assert hand is not None
    alice.page.wait_for_selector("[data-testid=board]", state="visible")
    mine = [c for c in alice.page.locator("[data-testid=hand] .card-btn").evaluate_all(
        "els => els.map(e => e.dataset.card)")][:3]
    for card in mine:
        alice.page.click(f'.board .card-btn[data-card="{card}"]')
    alice.page.click("[data-testid=row-front] .row-label")
    expect(alice.page.locator("[data-testid=row-front] .row-cards .card-btn")).to_have_count(3)

    # Closing the tab and opening the table again: the placed row is still there.
    context = alice.page.context
    alice.page.close()
    alice.page = context.new_page()
    alice.open(f"/tables/{table.pk}/")
    alice.page.wait_for_selector("[data-testid=board]", state="visible")
    placed = alice.page.locator("[data-testid=row-front] .row-cards .card-btn").evaluate_all(
        "els => els.map(e => e.dataset.card)")
    assert sorted(placed) == sorted(mine)

    seat = hand.seat_of(bob.user.pk)
    call(hand_act, table_id=table.pk, user=bob.user,
         action=dict(engine(hand.game).auto_action(Hand.objects.get(pk=hand.pk).state, seat)))
    hand = call(Hand.objects.get, pk=hand.pk)
    time.sleep(max(0.0, hand.deadline.timestamp() - time.time()) + 0.2)  # the behaviour: the clock runs out
    assert call(hand_expire, hand_id=hand.pk, phase_seq=hand.phase_seq)
    told = alice.page.locator("[data-testid=toast]", has_text=text("timed_out", "zh-hans"))
    expect(told).to_have_count(1)
    wait_showdown(bob.page)
    expect(bob.page.locator("[data-testid=toast]", has_text=text("timed_out", "en"))).to_have_count(0)
    wait_showdown(alice.page)
    left = alice.page.evaluate("() => Object.keys(localStorage).filter(k => k.startsWith('ct-board-'))")
    assert left == []  # the hand is over: its rows are forgotten
    assert not alice.errors and not bob.errors


@pytest.mark.parametrize(("lang", "size"), [("zh-hans", PHONE), ("en", DESKTOP)])
def test_a_refused_buy_in_is_one_message_with_its_coins_as_the_pages_write_them(player, make_table, lang, size):
    table = make_table("thirteen")
    p = player("阿明", lang=lang, width=size[0], height=size[1], coins=300_400)
    p.open(f"/tables/{table.pk}/")
    p.page.wait_for_selector("[data-testid=connection].conn-online")
    minimum = table.stake_level.min_buy_in
    for amount, error in ((9_999_900, InsufficientFunds(balance=300_400, needs=9_999_900)),
                          (minimum - 100, BelowMinimumBuyIn(amount=minimum - 100, minimum=minimum))):
        p.page.fill("[data-testid=buy-in]", f"{amount // 100}")
        p.page.click("[data-testid=join]")
        with translation.override(lang):
            expected = error.localized()
        toast = p.page.locator("[data-testid=toast]").last
        expect(toast.locator("[data-testid=toast-text]")).to_have_text(expected)
        assert toast.locator("span, small").count() == 1  # one message, no second line
        assert "\n" not in toast.inner_text().replace("×", "").strip()
        p.page.click("[data-testid=toast] .toast-x >> nth=-1")
    assert not p.errors


def test_the_refusals_name_their_coins_grouped_with_two_decimals():
    with translation.override("zh-hans"):
        assert "3,004.00" in InsufficientFunds(balance=300_400, needs=9_999_900).localized()
        assert "99,999.00" in InsufficientFunds(balance=300_400, needs=9_999_900).localized()


@pytest.mark.parametrize("lang", ["zh-hans", "en"])
def test_at_375_px_the_history_keeps_hand_names_whole_and_the_top_bar_keeps_name_and_log_out(player, make_table, lang):
    table = make_table("thirteen")
    me = player("一个名字非常非常长的玩家ABCDEFGHIJ", lang=lang, width=PHONE[0], height=PHONE[1])
    other = player("Bob", lang="en")
    for i, user in enumerate((me.user, other.user)):
        call(seat_join, table_id=table.pk, user=user, buy_in=table.stake_level.min_buy_in, request_id=f"h{i}")
    for _ in range(2):
        hand = call(hand_start_if_ready, table_id=table.pk)
        assert hand is not None
        call(hand_play_out, hand, [me.user, other.user])
    me.open("/history/")
    links = me.page.locator("table.hh a[data-hand-id]")
    expect(links.first).to_be_visible()
    rects = links.evaluate_all("els => els.map(e => e.getClientRects().length)")
    assert rects and all(n == 1 for n in rects), rects  # each "Hand 20" on one line
    width = me.page.evaluate("() => window.innerWidth")
    for selector in ("[data-testid=nav-user]", "[data-testid=logout]"):
        box = me.page.locator(selector).bounding_box()
        assert box is not None and box["width"] > 10 and box["x"] >= 0 and box["x"] + box["width"] <= width + 0.5, (
            selector, box)
    cut = me.page.locator("[data-testid=nav-user]").evaluate(
        "e => [e.scrollWidth > e.clientWidth, getComputedStyle(e).textOverflow]")
    assert cut == [True, "ellipsis"]  # the long name is cut short with an ellipsis
    me.shot(f"history-375-{lang}")
    assert not me.errors


@pytest.mark.parametrize(("lang", "size"), [("zh-hant", PHONE), ("en", DESKTOP)])
def test_the_lobbys_play_refuses_a_self_excluded_player_at_once(player, make_table, lang, size):
    make_table("thirteen")
    p = player("阿明", lang=lang, width=size[0], height=size[1])
    call(exclusion_start, user=p.user, period="1d")
    p.open("/lobby/")
    p.page.locator("form button.button.block").first.click()
    p.page.wait_for_url(re.compile(r"/lobby/"))
    def refusal() -> str | None:
        with translation.override(lang):
            return play_refusal(user=p.user, now=timezone.now())

    expected = call(refusal)
    assert expected
    expect(p.page.locator("ul.messages li.error", has_text=expected)).to_be_visible()
    assert "/tables/" not in p.page.url
    assert not p.errors
