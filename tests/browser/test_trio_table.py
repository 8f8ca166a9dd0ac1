"""三人十三支 in the browser: two players submit, the third lets the clock run out (30 s, the
automatic extension, then auto-play), shortened here by the stake level's timer rules."""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import expect

from games.models import Hand
from games.services.hands import hand_expire, hand_start_if_ready
from tests.browser.conftest import call
from tests.browser.helpers import ROWS, category_text, signed, sit_down, text, wait_showdown

pytestmark = pytest.mark.browser


def wait_past(deadline) -> None:
    time.sleep(max(0.0, deadline.timestamp() - time.time()) + 0.1)


def test_three_players_play_and_the_one_who_waits_is_auto_played(player, make_table):
    table = make_table("thirteen_trio", arrange_seconds=3, extend_seconds=2)
    players = [player("阿丽"), player("Bob", lang="en"), player("小凯", lang="zh-hant")]
    for p in players:
        sit_down(p, table)
    hand = call(hand_start_if_ready, table_id=table.pk)
    assert hand is not None
    for p in players:
        p.page.wait_for_selector("[data-testid=board]", state="visible")
        assert p.page.locator("[data-testid=hand] .card-btn").count() == 17
        expect(p.page.locator(".jackpot img")).to_be_visible()
    for p in players[:2]:
        p.page.click("[data-testid=hint]")
        p.page.wait_for_function("() => document.querySelectorAll('[data-testid=hand] .card-btn').length === 4")
        p.page.click("[data-testid=submit]")
        p.page.wait_for_selector("[data-testid=submitted]", state="visible")
    idle = players[2]
    expect(idle.page.locator("[data-testid=timer]")).to_be_visible()

    wait_past(hand.deadline)
    assert call(hand_expire, hand_id=hand.pk, phase_seq=hand.phase_seq)
    idle.page.wait_for_selector("[data-testid=extended]", state="visible")
    assert idle.page.locator("[data-testid=extended]").inner_text() == text("extended", "zh-hant")
    hand.refresh_from_db()
    wait_past(hand.deadline)
    assert call(hand_expire, hand_id=hand.pk, phase_seq=hand.phase_seq)

    hand.refresh_from_db()
    assert hand.status == Hand.Status.SETTLED
    result, late = hand.result, hand.seat_of(idle.user.pk)
    for p, lang in zip(players, ["zh-hans", "en", "zh-hant"], strict=True):
        wait_showdown(p.page)
        for i in range(3):
            card = p.page.locator(f"[data-testid=result-{i}]")
            assert card.locator("[data-testid=coins]").inner_text() == signed(result["coins"][i])
            assert card.locator("[data-testid=auto-badge]").is_visible() == (i == late)
            for row in ROWS:
                played = result["rows"][i][row]
                assert card.locator(f"[data-testid=cat-{i}-{row}]").inner_text() == category_text(played, lang, suits=False)
        if result["home_run"] is not None:
            expect(p.page.locator(f"[data-testid=result-{result['home_run']}] [data-testid=home-run]")).to_be_visible()
        assert not p.errors
    for p, name in zip(players, ["zh-hans", "en", "zh-hant"], strict=True):
        p.shot(f"trio-showdown-{name}")
