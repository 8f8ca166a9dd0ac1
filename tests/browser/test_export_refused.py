"""A download from "My hands" while another export of the account runs: the player stays on My
hands and reads why, in their language, at phone (375×667) and desktop (1280×800) sizes; once
the other export ends, the same link downloads."""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import translation

from history.exports.budget import export_end, export_start
from tests.browser.conftest import call

# The export reads through its own database alias (history/exports/budget.py, step 1).
pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True, databases=["default", "exports"])]

BUSY = "Your previous export is still running: wait for it to finish, then try again."


@pytest.mark.parametrize("lang,width,height", [("zh-hans", 375, 667), ("en", 1280, 800), ("zh-hant", 375, 667)])
def test_a_download_refused_while_another_export_runs_is_explained_on_the_page(
    player: Any, settings: Any, lang: str, width: int, height: int
) -> None:
    settings.EXPORTS_PER_USER = 1
    me = player("阿丽", lang=lang, width=width, height=height)
    running = call(export_start, user_id=me.user.pk)  # the account's other export, still streaming
    me.open("/history/")

    me.page.click("a[href='/history/export/?format=csv']")

    message = me.page.locator(".messages .error")
    message.wait_for(state="visible")
    with translation.override(lang):
        expected = translation.gettext(BUSY)
    assert message.inner_text().strip() == expected and (expected != BUSY) == (lang != "en")
    assert me.page.url.endswith("/history/")
    box = message.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width
    assert me.page.evaluate("() => document.documentElement.scrollWidth") <= width
    me.shot(f"export-refused-{lang}-{width}")

    call(export_end, member=running)
    with me.page.expect_download() as info:
        me.page.click("a[href='/history/export/?format=csv']")
    assert info.value.suggested_filename == "my-hands.csv"
    assert me.errors == [] and me.csp_violations == []
