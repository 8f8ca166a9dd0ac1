"""A new player's first minutes in the browser, on a desktop and on a phone (375×667): sign up in
the page's language with the welcome coins in the wallet and the way to more coins explained;
"Play" at a stake the wallet does not cover explains and offers the stakes it does; a table's
buy-in box never starts above the wallet."""

from __future__ import annotations

import os
from itertools import count
from typing import Any

import pytest

from tables.models import StakeLevel, Table
from tests.browser.conftest import CHROMIUM, call
from tests.browser.helpers import money, text
from tests.factories import ensure_stake_levels
from wallet.models import WELCOME_COINS_DEFAULT
from wallet.money import format_coins

pytestmark = pytest.mark.browser
SIZES = {"desktop": (1280, 800), "phone": (375, 667)}
_names = count(1)


def _fits(page: Any, selector: str) -> None:
    """The element is shown whole within the viewport's width, and the page does not scroll sideways."""
    box = page.locator(selector).first.bounding_box()
    width = page.viewport_size["width"]
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width + 1, (selector, box, width)
    assert page.evaluate("() => document.documentElement.scrollWidth") <= width + 1


def _levels(game: str) -> list[StakeLevel]:
    ensure_stake_levels()
    return list(StakeLevel.objects.filter(game=game, mode="", active=True).order_by("min_buy_in"))


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("lang", ["en", "zh-hant"])
def test_sign_up_keeps_the_language_and_fills_the_wallet(browser: Any, server: str, size: str, lang: str) -> None:
    width, height = SIZES[size]
    context = browser.new_context(viewport={"width": width, "height": height}, locale=lang)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        page.goto(f"{server}/accounts/signup/")
        assert page.locator("html").get_attribute("lang") == lang
        assert page.locator("#id_language").input_value() == lang  # the page's language, chosen
        _fits(page, "section.card form button[type=submit]")
        username = f"newbie{next(_names)}_{os.getpid()}"
        page.fill("input[name=username]", username)
        page.fill("input[name=password1]", "tiles-and-cards-77")
        page.fill("input[name=password2]", "tiles-and-cards-77")
        page.click("section.card form button[type=submit]")
        page.wait_for_selector(".messages")
        assert page.locator("html").get_attribute("lang") == lang  # still the language it was in
        welcome = page.locator(".messages").inner_text()
        assert format_coins(WELCOME_COINS_DEFAULT, grouping=True) in welcome  # as every page writes coins
        assert ("Welcome!" in welcome) == (lang == "en") and ("歡迎" in welcome) == (lang == "zh-hant")
        page.goto(f"{server}/wallet/")
        assert page.locator("[data-testid=balance]").inner_text() == format_coins(WELCOME_COINS_DEFAULT, grouping=True)
        label = page.locator("[data-testid=entry-label]").first.inner_text()
        assert label == ("Welcome coins" if lang == "en" else "歡迎金幣")
        more = page.locator("[data-testid=wallet-more]")
        assert more.is_visible() and ("staff" in more.inner_text()) == (lang == "en")
        _fits(page, "[data-testid=wallet-more]")
        page.screenshot(path=str(_artifact(f"signup-wallet-{lang}-{size}")), full_page=True)
        assert not errors
    finally:
        context.close()


@pytest.mark.parametrize("size", SIZES)
def test_play_with_too_little_money_explains_and_offers_what_the_wallet_covers(player: Any, size: str) -> None:
    cheap, dear = _levels("thirteen")[0], _levels("thirteen")[3]
    width, height = SIZES[size]
    short = player("阿短", lang="zh-hans", width=width, height=height, coins=dear.min_buy_in - 100)
    short.open("/lobby/?game=thirteen")
    short.page.wait_for_selector(".conn-online")
    short.page.locator(f"article[data-level='{dear.pk}'] button[type=submit]").click()
    short.page.wait_for_url(f"**/lobby/play/{dear.pk}/")
    explained = short.page.locator("[data-testid=play-short]")
    assert "金币不足" in explained.inner_text()
    assert format_coins(dear.min_buy_in, grouping=True) in explained.inner_text()
    _fits(short.page, "[data-testid=play-short]")
    assert not call(lambda: Table.objects.filter(stake_level=dear).exists())  # no empty table was opened
    offered = short.page.locator(f"form[action='/lobby/play/{cheap.pk}/'] button")
    assert offered.is_visible()
    assert short.page.locator(f"form[action='/lobby/play/{dear.pk}/']").count() == 0
    short.shot(f"play-short-zh-hans-{size}")
    short.page.locator("[data-testid=play-short-wallet]").click()
    short.page.wait_for_url("**/wallet/")
    assert short.page.locator("[data-testid=wallet-more]").is_visible()
    short.page.go_back()
    short.page.locator(f"form[action='/lobby/play/{cheap.pk}/'] button").click()
    short.page.wait_for_url("**/tables/*/")
    short.page.wait_for_selector("[data-testid=buy-in]")
    assert short.page.locator("[data-testid=buy-in]").input_value() == money(cheap.min_buy_in).replace(",", "")
    assert short.page.locator("[data-testid=buy-in-short]").is_hidden()
    assert not short.errors


def test_the_buy_in_box_never_starts_above_the_wallet(player: Any, make_table: Any) -> None:
    table = make_table("thirteen_trio")
    minimum = table.stake_level.min_buy_in
    short = player("Shorty", lang="en", width=375, height=667, coins=minimum // 2 + 50)
    short.open(f"/tables/{table.pk}/")
    short.page.wait_for_selector("[data-testid=buy-in]")
    assert short.page.locator("[data-testid=buy-in]").input_value() == f"{(minimum // 2 + 50) // 100}.50"
    notice = short.page.locator("[data-testid=buy-in-short]")
    notice.wait_for()
    expected = text("buy_in_short", "en", x=money(minimum // 2 + 50), y=money(minimum))
    assert expected in notice.inner_text()
    assert notice.locator("a").get_attribute("href") == "/wallet/"
    _fits(short.page, "[data-testid=buy-in-short]")
    short.shot("buy-in-short-en-phone")
    assert not short.errors


def _artifact(name: str) -> Any:
    from tests.browser.conftest import ARTIFACTS

    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS / f"{name}.png"


assert CHROMIUM  # the browser fixture skips without it


@pytest.mark.parametrize(("lang", "words"), [("en", "below this table's minimum"), ("zh-hant", "低於本桌最低買入")])
def test_a_refused_buy_in_is_explained_in_the_pages_language_only(player: Any, make_table: Any, lang: str,
                                                                   words: str) -> None:
    table = make_table("thirteen")
    sitter = player("Lang", lang=lang, width=375, height=667)
    sitter.open(f"/tables/{table.pk}/")
    sitter.page.wait_for_selector(".conn-online")
    sitter.page.fill("[data-testid=buy-in]", "1")
    sitter.page.click("[data-testid=join]")
    toast = sitter.page.locator("[data-testid=toast]").first
    toast.wait_for()
    shown = toast.inner_text()
    message = shown.split("\n")[0]  # the toast's one message; its close button follows
    assert words in message and text("err_below_minimum_buy_in", lang) not in shown  # the server's words alone
    has_cjk = any("\u3400" <= ch <= "\u9fff" for ch in shown)
    assert has_cjk == (lang != "en"), shown
    assert not sitter.errors
