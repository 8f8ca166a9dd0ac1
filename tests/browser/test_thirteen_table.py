"""十三张 in the browser: four players sit down and play a hand to showdown by clicking."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from games.engine.cards import cards_str, parse_cards
from games.engine.thirteen.arrange import arrange
from games.models import Hand
from games.services.hands import hand_start_if_ready
from tests.browser.conftest import call
from tests.browser.helpers import (
    ROWS,
    category_text,
    is_foul,
    key_rows,
    money,
    natural_seed,
    row_cards,
    signed,
    sit_down,
    tap_rows,
    text,
    wait_showdown,
)
from wallet import selectors

pytestmark = pytest.mark.browser


def best_rows(cards: list[str]) -> dict[str, list[str]]:
    best = arrange(parse_cards(cards))
    return {row: cards_str(best[row]) for row in ROWS}


def test_four_players_play_a_hand_to_showdown_by_clicking(player, make_table):
    table = make_table("thirteen")
    players = [
        player("阿丽"), player("阿宝", lang="zh-hant"), player("Carol", lang="en"),
        player("大伟", width=375, height=812),
    ]
    langs = ["zh-hans", "zh-hant", "en", "zh-hans"]
    for p in players:
        sit_down(p, table)
    hand = call(hand_start_if_ready, table_id=table.pk)
    assert hand is not None and len(hand.players) == 4
    cards = {p: cards_str(hand.state["seats"][hand.seat_of(p.user.pk)]["cards"]) for p in players}
    for p in players:
        p.page.wait_for_selector("[data-testid=board]", state="visible")
        hand_cards = p.page.locator("[data-testid=hand] .card-btn")
        assert sorted(hand_cards.nth(i).get_attribute("data-card") for i in range(13)) == sorted(cards[p])
    expect(players[0].page.locator("[data-testid=timer]")).to_be_visible()

    # 阿丽 taps a foul first (middle and back swapped), sees the warning, then clears and taps it right.
    alice, rows = players[0], best_rows(cards[players[0]])
    swapped = {"front": rows["front"], "middle": rows["back"], "back": rows["middle"]}
    if is_foul(swapped, suits=True):
        tap_rows(alice.page, swapped)
        expect(alice.page.locator("[data-testid=foul-warning]")).to_be_visible()
        alice.page.get_by_role("button", name=text("clear", "zh-hans")).click()
    tap_rows(alice.page, rows)
    expect(alice.page.locator("[data-testid=foul-warning]")).to_be_hidden()
    for row in ROWS:
        assert row_cards(alice.page, row) == sorted(rows[row])
        assert alice.page.locator(f"[data-testid=cat-{row}]").inner_text().startswith(category_text(rows[row], "zh-hans"))

    # 阿宝 uses the keyboard; Carol takes the suggestion; 大伟 (375 px wide) drags one card, taps the rest.
    key_rows(players[1].page, best_rows(cards[players[1]]))
    players[2].page.click("[data-testid=hint]")
    players[2].page.wait_for_function("() => document.querySelectorAll('[data-testid=hand] .card-btn').length === 0")
    dave, dave_rows = players[3], best_rows(cards[players[3]])
    first = dave_rows["back"][0]
    dave.page.locator(f'.board .card-btn[data-card="{first}"]').drag_to(dave.page.locator("[data-testid=row-back] .row-cards"))
    assert first in row_cards(dave.page, "back")
    tap_rows(dave.page, dave_rows)
    for p, lang in zip(players[1:], langs[1:], strict=True):
        for row in ROWS:
            placed = row_cards(p.page, row)
            assert p.page.locator(f"[data-testid=cat-{row}]").inner_text().startswith(category_text(placed, lang))
    for p in players:
        p.page.click("[data-testid=submit]")

    for p in players:
        wait_showdown(p.page)
    hand = Hand.objects.get(pk=hand.pk)
    assert hand.status == Hand.Status.SETTLED
    for p, lang in zip(players, langs, strict=True):
        check_showdown(p, lang, hand, table)
    for p, name in zip(players, ["zh-hans", "zh-hant", "en", "375px"], strict=True):
        p.shot(f"thirteen-showdown-{name}")


def check_showdown(p, lang: str, hand: Hand, table) -> None:
    """Every seat's coins, balance (= its table money now) and row categories, as the engine says."""
    result = hand.result
    for i, info in enumerate(hand.players):
        card = p.page.locator(f"[data-testid=result-{i}]")
        assert card.locator("[data-testid=coins]").inner_text() == signed(result["coins"][i])
        money_now = selectors.table_money(user=_user(info["user"]), table_ref=table.wallet_ref)
        assert money_now == table.stake_level.min_buy_in + result["coins"][i]
        assert card.locator("[data-testid=balance]").inner_text() == text("balance", lang, x=money(money_now))
        for row in ROWS:
            shown = card.locator(f"[data-testid=cat-{i}-{row}]").inner_text()
            assert shown == category_text(result["hands"][i][row], lang)
        seat = p.page.locator(f"[data-seat='{info['seat']}'] [data-testid=seat-money]")
        assert seat.inner_text() == money(money_now)
    assert not p.errors


def _user(user_id: int):
    from accounts.models import User

    return User.objects.get(pk=user_id)


def test_a_player_holding_a_natural_declares_it_with_the_baodao_button(player, make_table, monkeypatch):
    from games.engine import thirteen
    from games.engine.thirteen.naturals import best_natural
    from games.services import hands as hand_services

    seed = natural_seed(2)
    monkeypatch.setattr(hand_services, "new_server_seed", lambda: seed)
    table = make_table("thirteen")
    holder, other = player("阿丽"), player("Bob", lang="en")
    for p in (holder, other):
        sit_down(p, table)
    hand = call(hand_start_if_ready, table_id=table.pk)
    assert hand is not None and hand.server_seed == seed
    natural = best_natural(thirteen.deal(seed, [], 2, 0)[0])
    seat = hand.seat_of(holder.user.pk)
    assert seat == 0
    expect(holder.page.locator("[data-testid=declare]")).to_be_visible()
    expect(other.page.locator("[data-testid=declare]")).to_be_hidden()
    holder.page.click("[data-testid=declare]")
    holder.page.click("[data-modal-ok]")  # 报到 asks for a confirmation first
    other.page.click("[data-testid=hint]")
    other.page.wait_for_function("() => document.querySelectorAll('[data-testid=hand] .card-btn').length === 0")
    other.page.click("[data-testid=submit]")
    for p in (holder, other):
        wait_showdown(p.page)
    hand = Hand.objects.get(pk=hand.pk)
    assert hand.status == Hand.Status.SETTLED
    assert hand.result["natural"][seat] == natural
    assert hand.result["coins"][seat] > 0
    for p in (holder, other):
        expect(p.page.locator(f"[data-testid=result-{seat}] [data-testid=natural-cards] img")).to_have_count(13)
        expect(p.page.locator(f"[data-testid=result-{seat}] [data-testid=coins]")).to_have_text(
            signed(hand.result["coins"][seat])
        )
    # the banner says 报到 and what the natural collected
    paid = sum(p["coins"] * (1 if p["seats"][0] == seat else -1) for p in hand.result["pairs"] if p["kind"] == "natural")
    for p, lang in ((holder, "zh-hans"), (other, "en")):
        banner = p.page.locator("[data-testid=highlight][data-kind=natural]")
        expect(banner).to_contain_text(text("hl_natural", lang))
        expect(banner).to_contain_text(text("hl_collects", lang, name="阿丽", x=money(paid)))
    holder.shot("thirteen-natural-zh-hans")
