"""A signed-out visitor past their address's socket limit is told why, in their language, on a
phone and on a desktop, also when refused at the handshake first (an address told moments
before); the visitor already watching keeps watching."""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import translation

from tests.browser.helpers import text

pytestmark = pytest.mark.browser

TOO_MANY = "Too many table connections from your address (%(n)d): close one, or log in."


def _visitor(browser: Any, base: str, lang: str, width: int, height: int) -> Any:
    context = browser.new_context(viewport={"width": width, "height": height}, locale=lang)
    page = context.new_page()
    page.goto(base + "/")  # the language of a visitor without an account: the browser's
    return context, page


def test_a_visitor_past_the_address_limit_is_told_why_in_their_language(browser, server, make_table, settings):
    settings.GAMES_WS_CONNECTIONS_PER_ADDRESS = 1
    # Each visitor after the first comes within the quiet window of the one before: refused at the
    # handshake, the page tries again and, once the window is over, is told why.
    settings.GAMES_WS_REFUSAL_QUIET = 2.0
    table = make_table("thirteen")
    watching_context, watching = _visitor(browser, server, "zh-hans", 375, 667)
    watching.goto(f"{server}/tables/{table.pk}/")
    watching.wait_for_selector("[data-testid=connection].conn-online")
    contexts = [watching_context]
    try:
        for lang, width, height in (("en", 1280, 800), ("zh-hant", 375, 667), ("zh-hans", 1280, 800)):
            context, page = _visitor(browser, server, lang, width, height)
            contexts.append(context)
            page.goto(f"{server}/tables/{table.pk}/")
            page.wait_for_selector("[data-testid=connection].conn-refused")
            toast = page.locator("[data-testid=toast]").first
            toast.wait_for()
            with translation.override(lang):
                said = translation.gettext(TOO_MANY) % {"n": 1}
            assert said in toast.inner_text()
            assert text("conn_refused", lang) in page.locator("[data-testid=connection]").inner_text()
            box = toast.bounding_box()
            assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width, "the message fits the screen"
        assert "conn-online" in (watching.get_attribute("[data-testid=connection]", "class") or "")
    finally:
        for context in contexts:
            context.close()
