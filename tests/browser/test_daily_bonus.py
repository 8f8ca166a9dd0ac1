"""The daily bonus in the browser, on a desktop and on a phone (375×667): a player short of coins
claims it on the wallet page, and a second claim the same day (from a lobby loaded before the
first) is refused with when the next one is due."""

from __future__ import annotations

from typing import Any

import pytest

from rewards.models import DAILY_BONUS_AMOUNT_DEFAULT
from tests.browser.conftest import ARTIFACTS
from tests.browser.helpers import money
from wallet.money import format_coins

pytestmark = pytest.mark.browser
SIZES = {"desktop": (1280, 800), "phone": (375, 667)}
CLAIMED = {"en": "Daily bonus claimed", "zh-hans": "已领取每日奖励", "zh-hant": "已領取每日獎勵"}
REFUSED = {"en": "You have claimed today's bonus", "zh-hans": "您已领取今天的奖励", "zh-hant": "您已領取今天的獎勵"}


def _fits(page: Any, selector: str) -> None:
    box = page.locator(selector).first.bounding_box()
    width = page.viewport_size["width"]
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width + 1, (selector, box, width)
    assert page.evaluate("() => document.documentElement.scrollWidth") <= width + 1


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("lang", ["en", "zh-hans", "zh-hant"])
def test_claim_the_daily_bonus_once_and_be_told_why_not_the_second_time(player: Any, size: str, lang: str) -> None:
    width, height = SIZES[size]
    short = player("阿少", lang=lang, width=width, height=height, coins=100)
    lobby = short.page.context.new_page()
    lobby.goto(short.base + "/lobby/")
    lobby.wait_for_selector("[data-testid=daily-bonus-claim]")
    _fits(lobby, "[data-testid=daily-bonus]")

    short.open("/wallet/")
    _fits(short.page, "[data-testid=daily-bonus-claim]")
    short.page.click("[data-testid=daily-bonus-claim]")
    short.page.wait_for_selector(".messages li.success")
    assert CLAIMED[lang] in short.page.locator(".messages").inner_text()
    assert short.page.locator("[data-testid=balance]").inner_text() == format_coins(
        100 + DAILY_BONUS_AMOUNT_DEFAULT, grouping=True)
    assert short.page.locator("[data-testid=daily-bonus-claim]").count() == 0
    assert REFUSED[lang] in short.page.locator("[data-testid=daily-bonus-why]").inner_text()
    short.shot(f"daily-bonus-claimed-{lang}-{size}")

    lobby.click("[data-testid=daily-bonus-claim]")  # the lobby still shows the button it loaded with
    lobby.wait_for_selector("main > ul.messages li.error")
    assert REFUSED[lang] in lobby.locator("main > ul.messages li.error").inner_text()
    assert lobby.locator("[data-testid=wallet] strong").inner_text() == money(100 + DAILY_BONUS_AMOUNT_DEFAULT)
    _fits(lobby, "[data-testid=daily-bonus]")
    lobby.screenshot(path=str(ARTIFACTS / f"daily-bonus-refused-{lang}-{size}.png"), full_page=True)
    assert not short.errors and not short.csp_violations
