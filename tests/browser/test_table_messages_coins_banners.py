"""Three things a phone player meets at every table, measured at 375×667, 667×375 and 1280×800:
the messages (toasts) lie over none of 出牌, the countdown, the hand or the results, and stay
readable; coins read the same everywhere on the table page (two decimals, thousands grouped); and
every banner of a hand with three shoots and a 全垒打 shows on the first screen, none cut off."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.utils import translation
from django.utils.translation import gettext
from playwright.sync_api import expect

from games.adapters import engine, rule_sheet
from games.error_codes import ERRORS, PARAMETERS
from games.models import Hand
from games.services import hands as hand_services
from games.services.hands import hand_start_if_ready
from games.services.seating import seat_join
from tests.browser.conftest import call
from tests.browser.helpers import money, natural_seed, shot_by_one, sit_down, text, wait_showdown
from tests.browser.layout import COVERS, SIZES, problems
from tests.factories import funded_user, hand_play_out

pytestmark = pytest.mark.browser

CASES = [("zh-hans", "portrait"), ("en", "landscape"), ("zh-hant", "desktop")]
IDS = [size for _, size in CASES]
TOAST = "() => Alpine.$data(document.querySelector('.table-page'))"
ARRANGING = {"[data-testid=submit]": 1, "[data-testid=declare]": 1, "[data-testid=timer]": 1, "[data-testid=phase]": 1,
             "[data-testid=hand] .card-btn": 13, ".board .row-cards": 3, "[data-testid=toast]": 1}
AMOUNT = re.compile(r"\d[\d,]*(?:\.\d+)?")


def _bench(table: Any, count: int) -> list[Any]:
    """``count`` more players seated through the services."""
    users = []
    for i in range(count):
        user = funded_user(f"msg{table.pk}_{i}", 2_000_000, display_name=f"座{i}")
        seat_join(table_id=table.pk, user=user, buy_in=table.stake_level.min_buy_in, request_id=f"msg-{user.pk}")
        users.append(user)
    return users


def _sit_and_deal(p: Any, table: Any, others: int) -> tuple[Hand, list[Any]]:
    sit_down(p, table)
    users = [p.user, *call(_bench, table, others)]
    hand = call(hand_start_if_ready, table_id=table.pk)
    assert hand is not None
    return hand, users


def _say(page: Any, message: str, kind: str = "ok") -> None:
    """Show a message the way the page does (its ``toast``), as the newest."""
    page.evaluate(f"([text, kind]) => ({TOAST})().toast(text, kind)", [message, kind])
    expect(page.locator("[data-testid=toast-text]").last).to_have_text(message)


def _longest_error(lang: str) -> str:
    """The longest message a refusal can bring, in ``lang`` (games/error_codes.py)."""
    with translation.override(lang):
        texts = [gettext(m) % {k: PARAMETERS[k] for k in re.findall(r"%\((\w+)\)", m)} if "%(" in m else gettext(m)
                 for messages in ERRORS.values() for m in messages]
    return max(texts, key=len)


def _reading(page: Any) -> dict[str, float]:
    return page.locator("[data-testid=toast] >> nth=-1").locator("[data-testid=toast-text]").evaluate(
        "(e) => ({size: parseFloat(getComputedStyle(e).fontSize), hidden: e.scrollHeight - e.clientHeight})")


@pytest.mark.parametrize(("lang", "size"), CASES, ids=IDS)
def test_a_message_lies_over_neither_the_move_nor_the_clock_nor_the_hand_nor_the_results(player, make_table, lang,
                                                                                          size, monkeypatch):
    # The player holds a natural: the board shows the most it can (the natural's note, 报到 beside 出牌).
    monkeypatch.setattr(hand_services, "new_server_seed", lambda: natural_seed(4))
    width, height = SIZES[size]
    table = make_table("thirteen")
    me = player("阿丽", lang=lang, width=width, height=height)
    hand, users = _sit_and_deal(me, table, 3)
    assert hand.seat_of(me.user.pk) == 0
    me.page.wait_for_selector("[data-testid=declare]", state="visible")
    # The message of sitting down, as it stands while the hand is dealt (it goes after 5 s).
    _say(me.page, text("joined", lang, x=money(table.stake_level.min_buy_in)))
    found = problems(me.page, f"message-sat-{size}", ARRANGING, COVERS)
    reading = _reading(me.page)
    assert reading["size"] >= 12 and reading["hidden"] <= 1, reading  # readable, and whole
    # The longest refusal: two lines at most over the page; a tap shows the rest.
    _say(me.page, _longest_error(lang), "error")
    found += problems(me.page, f"message-longest-{size}", ARRANGING, COVERS)
    me.page.locator("[data-testid=toast] >> nth=-1").locator("[data-testid=toast-text]").click()
    assert _reading(me.page)["hidden"] <= 1

    call(hand_play_out, hand, users)
    wait_showdown(me.page)
    _say(me.page, text("timed_out", lang), "warn")
    results = {"[data-testid=showdown] .result": 4, "[data-testid=showdown] [data-testid=coins]": 4,
               "[data-testid=phase]": 1, "[data-testid=toast]": 1}
    found += problems(me.page, f"message-results-{size}", results, COVERS)
    assert not found, "\n".join(found)
    assert not me.errors


@pytest.mark.parametrize(("lang", "size"), CASES, ids=IDS)
def test_coins_read_with_two_decimals_and_grouped_everywhere_on_the_table_page(player, make_table, lang, size):
    width, height = SIZES[size]
    table = make_table("thirteen")
    level = table.stake_level
    me = player("阿丽", lang=lang, width=width, height=height, coins=123_456_700)
    me.open(f"/tables/{table.pk}/")
    me.page.wait_for_selector("[data-testid=connection].conn-online")
    seating = me.page.locator("[data-testid=seating]")
    expect(seating).to_contain_text(text("min_buy_in", lang, x=money(level.min_buy_in)))
    expect(seating).to_contain_text(text("wallet", lang, x=money(123_456_700)))
    me.page.click("[data-testid=join]")

    expect(me.page.locator("[data-testid=toast-text]").last).to_have_text(text("joined", lang, x=money(level.min_buy_in)))
    expect(me.page.locator("[data-testid=my-table-money]")).to_have_text(text("table_money", lang,
                                                                             x=money(level.min_buy_in)))
    expect(seating).to_contain_text(text("wallet", lang, x=money(123_456_700 - level.min_buy_in)))
    expect(me.page.locator(".seat.me [data-testid=seat-money]")).to_have_text(money(level.min_buy_in))
    unit = text(engine("thirteen").stake_word, lang, x=money(level.unit))
    head = me.page.locator(".table-title p")
    if size == "desktop":  # a phone's head names the table alone
        expect(head).to_contain_text(unit)
    # The rules panel writes its amounts as the scripts do.
    me.page.click("[data-testid=rules] summary")
    rules = me.page.locator("[data-testid=rules-body]").inner_text()
    amounts = [money(value) for item in rule_sheet(level)["lines"] for name, value in item["values"].items()
               if name in item["money"]]
    assert amounts and all(a in rules for a in amounts), (amounts, rules)
    shown = [a for a in AMOUNT.findall(rules) if "." in a]
    assert all(re.fullmatch(r"\d{1,3}(?:,\d{3})*\.\d\d", a) for a in shown), shown
    assert not me.errors


@pytest.mark.parametrize(("lang", "size"), CASES, ids=IDS)
def test_every_banner_of_three_shoots_and_a_home_run_shows_on_the_first_screen(player, make_table, lang, size):
    width, height = SIZES[size]
    table = make_table("thirteen")
    me = player("阿丽", lang=lang, width=width, height=height)
    hand, users = _sit_and_deal(me, table, 3)
    me.page.wait_for_selector("[data-testid=board]", state="visible")
    call(shot_by_one, hand, users, me.user)
    wait_showdown(me.page)
    banners = me.page.locator("[data-testid=highlight]")
    expect(banners).to_have_count(4)
    kinds = sorted(banners.evaluate_all("(els) => els.map(e => e.dataset.kind)"))
    assert kinds == ["home_run", "sweep", "sweep", "sweep"]
    keep = {"[data-testid=highlight]": 4, "[data-testid=highlight] .highlight-title": 4,
            "[data-testid=showdown] .result": 4, "[data-testid=showdown] [data-testid=coins]": 4,
            "[data-testid=phase]": 1}
    found = problems(me.page, f"banners-{size}", keep)
    assert not found, "\n".join(found)
    titles = banners.locator(".highlight-title").all_inner_texts()
    assert sorted(titles) == sorted([text("hl_home_run", lang)] + [text("hl_sweep", lang)] * 3)
    assert not me.errors
