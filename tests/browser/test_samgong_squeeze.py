"""三公's squeeze: your last card lies face down until you drag its back aside (a short drag
settles back, a long one turns it over), and its points show only then; with reduced motion the
card is shown plainly; the others still see only backs."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from games.engine.cards import cards_str
from games.engine.samgong import evaluate, hand_name
from games.models import Hand
from games.services.hands import hand_start_if_ready
from tests.browser.conftest import call
from tests.browser.helpers import sit_down, text
from tests.browser.test_samgong_table import hand_text

pytestmark = pytest.mark.browser


def _label(card: str) -> str:
    rank = "10" if card[0] == "T" else card[0]
    return rank + {"s": "♠", "h": "♥", "c": "♣", "d": "♦"}[card[1]]


def test_dragging_the_last_card_aside_peeks_at_it_and_reduced_motion_shows_it_plainly(player, make_table):
    table = make_table("samgong", "all_compare")
    alice = player("阿丽", width=375, height=667)
    bob = player("Bob", lang="en", width=667, height=375)
    bob.page.emulate_media(reduced_motion="reduce")
    for p in (alice, bob):
        sit_down(p, table)
    hand = call(hand_start_if_ready, table_id=table.pk)
    assert hand is not None
    for p in (alice, bob):  # the cards are dealt once the bets are in
        p.page.click("[data-testid=bet-1]")
    back = alice.page.locator("[data-testid=squeeze-back]")
    expect(back).to_be_visible()
    hand = call(Hand.objects.get, pk=hand.pk)
    mine = hand.state["cards"][hand.seat_of(alice.user.pk)]
    last = cards_str(mine)[2]
    page = alice.page
    expect(back).to_have_attribute("aria-label", text("squeeze_label", "zh-hans"))
    expect(page.locator("[data-testid=squeeze-help]")).to_have_text(text("squeeze_help", "zh-hans"))
    expect(page.locator("[data-testid=my-hand]")).to_be_hidden()  # no points before the peek
    expect(page.locator("[data-testid=squeeze] img")).to_have_attribute("alt", "")

    box = back.bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x + 6, y - box["height"] * 0.3, steps=4)  # a short drag: the back follows
    assert back.evaluate("(e) => getComputedStyle(e).transform") != "none"
    alice.shot("samgong-squeeze-portrait")
    page.mouse.up()
    expect(back).to_be_visible()  # and settles back
    expect(page.locator("[data-testid=my-hand]")).to_be_hidden()

    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x + 10, y - box["height"], steps=8)  # far enough: the card turns over
    page.mouse.up()
    expect(back).to_have_count(0)
    expect(page.locator(".my-cards img").nth(2)).to_have_attribute("alt", _label(last))
    name = hand_name(evaluate(mine, "classic"), "classic")
    expect(page.locator("[data-testid=my-hand]")).to_have_text(hand_text(name, "zh-hans"))

    # Reduced motion: every card plainly, the points at once; the others' cards stay backs.
    expect(bob.page.locator("[data-testid=my-hand]")).to_be_visible()
    expect(bob.page.locator("[data-testid=squeeze-back]")).to_have_count(0)
    assert bob.page.locator(".felt .seat:not(.me) .sg-cards img.pcard").evaluate_all(
        "(imgs) => imgs.filter(i => i.offsetParent !== null).length") == 0
    assert not alice.errors and not bob.errors


def test_a_tap_or_the_keyboard_turns_the_last_card_over(player, make_table):
    table = make_table("samgong", "all_compare")
    alice, bob = player("阿丽", width=1280, height=800), player("Bob", lang="en")
    for p in (alice, bob):
        sit_down(p, table)
    assert call(hand_start_if_ready, table_id=table.pk) is not None
    for p in (alice, bob):
        p.page.click("[data-testid=bet-1]")
    back = alice.page.locator("[data-testid=squeeze-back]")
    expect(back).to_be_visible()
    back.focus()
    alice.page.keyboard.press("Enter")
    expect(back).to_have_count(0)
    expect(alice.page.locator("[data-testid=my-hand]")).to_be_visible()
    bob.page.locator("[data-testid=squeeze-back]").click()
    expect(bob.page.locator("[data-testid=squeeze-back]")).to_have_count(0)
    expect(bob.page.locator("[data-testid=my-hand]")).to_be_visible()
    assert not alice.errors and not bob.errors
