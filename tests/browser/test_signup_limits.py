"""A sign-up past the browser's limit, on a desktop and on a phone (375×667), in 简体中文 and in
English: the first account of the browser is made with its welcome coins; the next one is refused
on the sign-up page with the reason in the page's language, and no account is made."""

from __future__ import annotations

import os
from itertools import count
from typing import Any

import pytest

from accounts.models import User
from tests.browser.conftest import ARTIFACTS, call

pytestmark = pytest.mark.browser
SIZES = {"desktop": (1280, 800), "phone": (375, 667)}
REFUSED = {"en": "Too many accounts were made in this browser", "zh-hans": "在此浏览器注册的账户太多"}
_names = count(1)


def _sign_up(page: Any, server: str) -> str:
    username = f"limit{next(_names)}_{os.getpid()}"
    page.goto(f"{server}/accounts/signup/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password1]", "tiles-and-cards-77")
    page.fill("input[name=password2]", "tiles-and-cards-77")
    page.click("section.card form button[type=submit]")
    page.wait_for_load_state()
    return username


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("lang", ["zh-hans", "en"])
def test_a_second_sign_up_in_one_browser_is_refused_with_the_reason_in_the_pages_language(
        browser: Any, server: str, settings: Any, size: str, lang: str) -> None:
    settings.SIGNUP_PER_BROWSER = 1
    width, height = SIZES[size]
    context = browser.new_context(viewport={"width": width, "height": height}, locale=lang)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        first = _sign_up(page, server)
        page.wait_for_selector(".messages")
        page.locator("form[action='/accounts/logout/'] button").click()
        page.wait_for_load_state()
        second = _sign_up(page, server)
        refusal = page.locator("section.card form .errorlist.nonfield")
        refusal.wait_for()
        assert REFUSED[lang] in refusal.inner_text()
        assert page.locator("html").get_attribute("lang") == lang
        box = refusal.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width + 1
        assert page.evaluate("() => document.documentElement.scrollWidth") <= width + 1
        assert page.locator("input[name=username]").input_value() == second  # kept for another try
        assert call(lambda: (User.objects.filter(username=first).exists(), User.objects.filter(username=second).exists())) == (True, False)
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"signup-refused-{lang}-{size}.png"), full_page=True)
        assert not errors
    finally:
        context.close()
