"""Rules at hand, waits explained, and no surprise when leaving a set (the table page and the
lobby): the rules panel per game and mode, the house table's payouts on its spots, a countdown
urgent only in its last seconds, what a table waits for, the trio's set progress and the leave
confirmation — every figure the engine's, compared here with the engine's own answers, at the
phone sizes too (375×667 portrait, 667×375 landscape)."""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import translation
from playwright.sync_api import expect

from games.adapters import engine_rules, rule_sheet
from games.engine.thirteen_trio.money import penalty_amount
from games.services.hands import hand_start_if_ready
from tables import ui_rules
from tables.models import Seat
from tables.rules_panel import rules_panel
from tests.browser.conftest import call
from tests.browser.helpers import money, sit_down
from tests.browser.test_accessibility import violations
from tests.browser.test_phone_layout import BOXES, LANDSCAPE, PORTRAIT
from tests.factories import hand_play_out

pytestmark = pytest.mark.browser


def say(key: str, lang: str, **params: Any) -> str:
    """A string of ct-rules.js as the browser shows it."""
    with translation.override(lang):
        value = str(ui_rules.RULES[key])
    for name, param in params.items():
        value = value.replace("{" + name + "}", str(param))
    return value


def panel_lines(level: Any, lang: str) -> list[str]:
    with translation.override(lang):
        return rules_panel(level)["lines"]


def inside_screen(page: Any, selector: str, name: str) -> None:
    """Every visible element of ``selector`` lies inside the viewport, the page no wider than it."""
    got = page.evaluate(BOXES, [selector])
    width, height = got["innerW"], got["innerH"]
    assert got["scrollW"] <= width, f"{name}: the page scrolls sideways"
    entry = got["out"][0]
    assert entry["n"] >= 1, f"{name}: {selector} not shown"
    for box in entry["boxes"]:
        assert box["x"] >= -0.5 and box["y"] >= -0.5 and box["r"] <= width + 0.5 and box["b"] <= height + 0.5, \
            f"{name}: {selector} at {box} is outside the {width}×{height} screen"


def test_a_banker_bid_table_says_it_waits_for_a_fourth_player_and_its_rules_say_the_cards_are_face_up(
        player, make_table):
    table = make_table("samgong", "banker_bid")
    sizes = {"desktop": (1280, 800), "portrait": PORTRAIT, "landscape": LANDSCAPE}
    players = {name: player(name, width=w, height=h) for name, (w, h) in sizes.items()}
    for p in players.values():
        sit_down(p, table)
    assert call(hand_start_if_ready, table_id=table.pk) is None  # 3 of the 4 it needs
    wanted = say("waiting_need", "zh-hans", k=1, n=4)
    lines = panel_lines(table.stake_level, "zh-hans")
    assert any("前两张牌明牌" in line for line in lines)  # the face-up cards, said in the rules
    for name, p in players.items():
        expect(p.page.locator("[data-testid=waiting]")).to_have_text(wanted)
        p.page.click("[data-testid=rules] summary")
        body = p.page.locator("[data-testid=rules-body]")
        expect(body).to_be_visible()
        assert body.locator("li").all_inner_texts() == lines
        p.page.evaluate("() => window.scrollTo(0, 0)")
        inside_screen(p.page, "[data-testid=rules-body]", f"rules-{name}")
        p.shot(f"rules-banker-bid-{name}")
        assert not p.errors
    desk = players["desktop"]
    assert violations(desk.page, desk.base) == []  # the open panel passes axe too


def test_while_banker_bid_bids_the_table_says_the_first_two_cards_are_face_up(player, make_table):
    table = make_table("samgong", "banker_bid")
    players = [player("阿丽", width=PORTRAIT[0], height=PORTRAIT[1]), player("Bob", lang="en"),
               player("小凯", lang="zh-hant", width=LANDSCAPE[0], height=LANDSCAPE[1]), player("Dee", lang="en")]
    for p in players:
        sit_down(p, table)
    hand = call(hand_start_if_ready, table_id=table.pk)
    assert hand is not None and hand.state["phase"] == "bid"
    for p, lang in zip(players, ["zh-hans", "en", "zh-hant", "en"], strict=True):
        with translation.override(lang):
            note = rules_panel(table.stake_level)["figures"]["phase_notes"]["bid"]
        expect(p.page.locator("[data-testid=phase-note]")).to_be_visible()
        expect(p.page.locator("[data-testid=phase-note]")).to_have_text(note)
        assert p.page.locator("[data-testid=waiting]").is_hidden()  # a hand is in play: nothing to wait for
    assert players[0].page.locator("[data-testid=phase-note]").inner_text() == "每人的前两张牌明牌，所有人可见。"
    players[0].page.evaluate("() => window.scrollTo(0, 0)")
    inside_screen(players[0].page, "[data-testid=phase-note]", "phase-note-portrait")
    for p in players:
        assert not p.errors


def test_the_lobby_shows_how_many_players_each_mode_needs(player, make_table):
    for game, mode in [("samgong", "banker_bid"), ("samgong", "all_compare"), ("thirteen_trio", "")]:
        make_table(game, mode)
    p = player("阿丽", width=PORTRAIT[0], height=PORTRAIT[1])
    p.open("/lobby/")
    from tables.models import StakeLevel
    from tables.selectors import stake_level_list

    levels: list[StakeLevel] = call(lambda: list(stake_level_list()))
    p.page.wait_for_selector("[data-testid=level-players]")
    for level in levels:
        lo, hi = rule_sheet(level)["players"]
        shown = p.page.locator(f"[data-level='{level.pk}'] [data-testid=level-players]").inner_text()
        assert shown == (say("players_exactly", "zh-hans", n=lo) if lo == hi
                         else say("players_range", "zh-hans", lo=lo, hi=hi)), level
    banker_bid = next(level for level in levels if level.mode == "banker_bid")
    assert p.page.locator(f"[data-level='{banker_bid.pk}'] [data-testid=level-players]").inner_text() == "需要 4 人"
    assert not p.errors


def test_the_house_spots_show_their_payouts_and_the_countdown_turns_urgent_only_at_the_end(player, make_table):
    table = make_table("samgong", "house", timers={"bet": 8})
    p = player("Bob", lang="en", width=PORTRAIT[0], height=PORTRAIT[1])
    sit_down(p, table)
    assert call(hand_start_if_ready, table_id=table.pk) is not None
    p.page.wait_for_selector("[data-testid=house-bets]", state="visible")
    sheet = rule_sheet(table.stake_level)
    half = sheet["half_pay"]
    for spot, pays in sheet["payouts"].items():
        ratio = "/".join(str(x) for x in pays)
        wanted = (say("pays_half", "en", p=ratio, n=half["points"]) if spot in half["spots"]
                  else say("pays", "en", p=ratio))
        expect(p.page.locator(f"[data-testid=pays-{spot}]")).to_have_text(wanted)
    assert p.page.locator("[data-testid=pays-tie]").inner_text() == "pays 8:1"
    assert p.page.locator("[data-testid=pays-sangong]").inner_text() == "pays 16:1"
    assert p.page.locator("[data-testid=pays-side]").inner_text() == "pays 40/30/6/3/1:1"
    timer = p.page.locator("[data-testid=timer-box]")
    expect(timer).to_be_visible()
    left = int(p.page.locator("[data-testid=timer]").inner_text().split()[0])
    assert left >= 5 and "urgent" not in (timer.get_attribute("class") or "")  # 8 s: not urgent at first
    p.page.wait_for_function("() => document.querySelector('[data-testid=timer-box]').classList.contains('urgent')",
                             timeout=10_000)
    assert int(p.page.locator("[data-testid=timer]").inner_text().split()[0]) <= 3  # only the last 3 s
    assert not p.errors


def test_leaving_a_trio_set_asks_first_with_the_games_left_and_the_penalty(player, make_table):
    table = make_table("thirteen_trio")
    players = [player("阿丽", width=PORTRAIT[0], height=PORTRAIT[1]),
               player("Bob", lang="en", width=LANDSCAPE[0], height=LANDSCAPE[1]), player("小凯", lang="zh-hant")]
    for p in players:
        sit_down(p, table)
    for p, lang in zip(players, ["zh-hans", "en", "zh-hant"], strict=True):  # the set, before any game
        expect(p.page.locator("[data-testid=set-progress]")).to_have_text(say("set_next", lang, n=1, m=6))
    hand = call(hand_start_if_ready, table_id=table.pk)
    assert hand is not None
    for p, lang in zip(players, ["zh-hans", "en", "zh-hant"], strict=True):
        expect(p.page.locator("[data-testid=set-progress]")).to_have_text(say("set_game", lang, n=1, m=6))
        p.page.evaluate("() => window.scrollTo(0, 0)")
        inside_screen(p.page, "[data-testid=set-progress]", f"set-{lang}")

    penalty = penalty_amount(engine_rules(table.stake_level)["base"])
    for p, lang, name in [(players[0], "zh-hans", "portrait"), (players[1], "en", "landscape")]:
        p.page.click("[data-testid=leave]")
        modal = p.page.locator("[data-testid=modal]")
        expect(modal).to_be_visible()
        expect(modal.locator("#modal-text")).to_have_text(say("leave_set_penalty", lang, n=6, m=6, x=money(penalty)))
        expect(p.page.locator("[data-testid=modal-cancel]")).to_be_focused()  # staying is the default
        inside_screen(p.page, "[data-testid=modal]", f"leave-{name}")
        p.shot(f"trio-leave-confirm-{name}")
        p.page.click("[data-testid=modal-cancel]")
        expect(modal).to_be_hidden()
    assert call(lambda: list(Seat.objects.filter(table=table).values_list("status", flat=True))) == ["playing"] * 3

    bob = players[1]
    bob.page.click("[data-testid=leave]")
    assert violations(bob.page, bob.base) == []  # the confirmation passes axe
    bob.page.click("[data-testid=modal-ok]")
    expect(bob.page.locator("[data-testid=leaving-note]")).to_be_visible()
    expect(bob.page.locator("[data-testid=leaving-note]")).to_have_text(say("leave_after_set", "en", n=6))
    seat = call(lambda: Seat.objects.get(table=table, user=bob.user))
    assert seat.status == Seat.Status.LEAVING
    expect(bob.page.locator("[data-testid=leave]")).to_be_hidden()

    call(hand_play_out, hand, [p.user for p in players])
    for p, lang in zip(players, ["zh-hans", "en", "zh-hant"], strict=True):
        expect(p.page.locator("[data-testid=set-progress]")).to_have_text(say("set_next", lang, n=2, m=6))
    for p in players:
        assert not p.errors
