"""三公 通比 in the browser: bet multipliers, reveal by hand and automatically, results."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from games.engine.cards import parse_cards
from games.engine.samgong import evaluate, hand_name
from games.models import Hand
from games.services.hands import hand_start_if_ready
from tests.browser.conftest import call
from tests.browser.helpers import money, signed, sit_down, text

pytestmark = pytest.mark.browser


def hand_text(name: str, lang: str) -> str:
    if name.startswith("point_"):
        return text("hand_point", lang, n=name[len("point_"):])
    return text(f"hand_{name}", lang)


def test_an_all_compare_hand_with_bets_reveals_and_results(player, make_table):
    table = make_table("samgong", "all_compare")
    langs = ["zh-hans", "en", "zh-hant"]
    players = [player("阿丽"), player("Bob", lang="en", width=375, height=812), player("小凯", lang="zh-hant")]
    for p in players:
        sit_down(p, table)
    players[1].page.check("[data-testid=auto-reveal]")
    hand = call(hand_start_if_ready, table_id=table.pk)
    assert hand is not None
    for multiplier, p in zip((1, 3, 5), players, strict=True):
        p.page.click(f"[data-testid=bet-{multiplier}]")
    for p in players:
        if p is not players[1]:  # the last card lies face down until squeezed (auto-reveal shows it)
            p.page.click("[data-testid=squeeze-back]")
        p.page.wait_for_selector("[data-testid=my-hand]", state="visible")
        cards = Hand.objects.get(pk=hand.pk).state["cards"][hand.seat_of(p.user.pk)]
        name = hand_name(evaluate(cards, "classic"), "classic")
        lang = langs[players.index(p)]
        assert p.page.locator("[data-testid=my-hand]").inner_text() == hand_text(name, lang)
    for p in (players[0], players[2]):
        p.page.click("[data-testid=reveal]")  # players[1] reveals automatically

    for p in players:
        p.page.wait_for_selector("[data-testid=showdown] [data-testid=result-0]", state="visible", timeout=15_000)
    hand.refresh_from_db()
    assert hand.status == Hand.Status.SETTLED
    result = hand.result
    assert result["bets"] == [1, 3, 5]
    for p, lang in zip(players, langs, strict=True):
        for i in range(3):
            row = p.page.locator(f"[data-testid=result-{i}]")
            assert row.locator("[data-testid=hand-name]").inner_text() == hand_text(result["hands"][i], lang)
            assert row.locator("[data-testid=coins]").inner_text() == signed(result["coins"][i])
            stack = table.stake_level.min_buy_in + result["coins"][i]
            assert row.locator("[data-testid=balance]").inner_text() == text("balance", lang, x=money(stack))
        assert parse_cards(result["cards"][0])  # every hand is shown
        assert not p.errors
    for p, name in zip(players, ["zh-hans", "en-375px", "zh-hant"], strict=True):
        p.shot(f"samgong-showdown-{name}")


def _fresh(hand: Hand) -> Hand:
    return call(Hand.objects.get, pk=hand.pk)


def _wait_for_phase(hand: Hand, phases: set[str], timeout: float = 15) -> Hand:
    import time

    end = time.monotonic() + timeout
    while time.monotonic() < end:
        fresh = _fresh(hand)
        if fresh.state["phase"] in phases or fresh.status != Hand.Status.ACTIVE:
            return fresh
        time.sleep(0.1)
    raise AssertionError(f"hand stayed in phase {fresh.state['phase']}")


def test_a_banker_bid_hand_bids_bets_and_reveals_by_clicking(player, make_table):
    table = make_table("samgong", "banker_bid")
    players = [player("阿丽"), player("Bob", lang="en"), player("小凯", lang="zh-hant"), player("大伟")]
    for p in players:
        sit_down(p, table)
    hand = call(hand_start_if_ready, table_id=table.pk)
    assert hand is not None and hand.state["phase"] == "bid"
    for i, p in enumerate(players):
        p.page.click("[data-testid=bid]" if i < 2 else "[data-testid=pass]")
    hand = _wait_for_phase(hand, {"bet"})
    banker = hand.state["banker"]
    assert banker in (hand.seat_of(players[0].user.pk), hand.seat_of(players[1].user.pk))
    for p in players:
        if hand.seat_of(p.user.pk) != banker:
            p.page.click("[data-testid=bet-2]")
    hand = _wait_for_phase(hand, {"reveal"})
    for p in players:
        p.page.wait_for_selector("[data-testid=reveal]", state="visible")
        p.page.click("[data-testid=reveal]")
    for p in players:
        p.page.wait_for_selector("[data-testid=showdown] [data-testid=result-0]", state="visible", timeout=15_000)
    hand = _fresh(hand)
    assert hand.status == Hand.Status.SETTLED
    result = hand.result
    assert [result["bets"][s] for s in range(4) if s != banker] == [2, 2, 2]
    for p in players:
        for i in range(4):
            row = p.page.locator(f"[data-testid=result-{i}]")
            expect(row.locator("[data-testid=coins]")).to_have_text(signed(result["coins"][i]))
        expect(p.page.locator(f"[data-testid=result-{banker}] .badge-gold")).to_be_visible()
        assert not p.errors
    players[0].shot("samgong-banker-bid-zh-hans")


def test_a_house_table_takes_bets_on_its_spots_and_settles_against_the_house(player, make_table):
    table = make_table("samgong", "house")
    players = [player("阿丽"), player("Bob", lang="en")]
    for p in players:
        sit_down(p, table)
    hand = call(hand_start_if_ready, table_id=table.pk)
    assert hand is not None and hand.state["phase"] == "bet"
    base = hand.state["rules"]["base"]
    alice, bob = players
    alice.page.click("[data-testid=spot-player]")
    alice.page.click("[data-testid=spot-player]")
    alice.page.click("[data-testid=place-bets]")
    bob.page.click("[data-testid=spot-banker]")
    bob.page.click("[data-testid=spot-side]")
    bob.page.click("[data-testid=place-bets]")
    for p in players:
        p.page.wait_for_selector("[data-testid=showdown] [data-testid=result-1]", state="visible", timeout=15_000)
    hand = _fresh(hand)
    assert hand.status == Hand.Status.SETTLED
    result = hand.result
    seat_a, seat_b = hand.seat_of(alice.user.pk), hand.seat_of(bob.user.pk)
    assert {k: v for k, v in result["bets"][seat_a].items() if v} == {"player": 2 * base}
    assert {k: v for k, v in result["bets"][seat_b].items() if v} == {"banker": base, "side": base}
    assert sum(result["coins"]) + result["house"] == 0
    for p in players:
        for i in range(2):
            expect(p.page.locator(f"[data-testid=result-{i}] [data-testid=coins]")).to_have_text(signed(result["coins"][i]))
        assert not p.errors
    bob.shot("samgong-house-en")
