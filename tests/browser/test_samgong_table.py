"""三公 通比 in the browser: bet multipliers, reveal by hand and automatically, results."""

from __future__ import annotations

import pytest

from games.engine.cards import parse_cards
from games.engine.samgong import evaluate, hand_name
from games.models import Hand
from games.services.hands import hand_start_if_ready
from tests.browser.conftest import call
from tests.browser.helpers import money, signed, text

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
        p.open(f"/tables/{table.pk}/")
        p.page.wait_for_selector("[data-testid=connection].conn-online")
        p.page.click("[data-testid=join]")
        p.page.wait_for_selector("[data-testid=my-table-money]")
    players[1].page.check("[data-testid=auto-reveal]")
    hand = call(hand_start_if_ready, table_id=table.pk)
    assert hand is not None
    for multiplier, p in zip((1, 3, 5), players, strict=True):
        p.page.click(f"[data-testid=bet-{multiplier}]")
    for p in players:
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
