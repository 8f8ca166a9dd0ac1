"""Table talk on the table page (docs/PROTOCOL.md "Table talk"), at phone and desktop sizes: a
seated player's quick phrase and emote show in a bubble by the speaker's seat, in each reader's
own language, to the other players and to a watcher, for a few seconds; a watcher may not talk
but may mute the table's talk, which the browser remembers; talking past the limit is refused
with the server's reason in the player's language."""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import translation

from games.sent import sent_reset
from games.services.talk import EMOTES, PHRASES
from tests.browser.conftest import call
from tests.browser.helpers import settled, sit_down

pytestmark = pytest.mark.browser

PHONE = (375, 667)
DESKTOP = (1280, 800)
YOU = "() => Alpine.$data(document.querySelector('[data-testid=table-page]')).you"


def phrase(key: str, lang: str) -> str:
    with translation.override(lang):
        return str(PHRASES[key])


def bubble(page: Any, seat: int) -> Any:
    return page.locator(f".seat[data-seat='{seat}'] [data-testid=talk-bubble]")


def say(page: Any, key: str) -> None:
    page.click("[data-testid=talk-toggle]")
    page.click(f"[data-testid=talk-panel] [data-say={key}]")
    page.wait_for_selector("[data-testid=talk-panel]", state="hidden")


@pytest.fixture
def talk_limit(settings: Any, server: str) -> Any:
    """Three sayings a minute: the test's own pace never refills the allowance."""
    settings.GAMES_ABUSE_LIMITS = True
    settings.GAMES_TALK_LIMIT = 3
    settings.GAMES_TALK_WINDOW = 60
    call(sent_reset)  # a test database starts its table ids over: records of other tables would be ahead
    return settings


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_phrases_and_emotes_show_by_the_seat_in_each_readers_language_and_a_muted_browser_hides_them(
        player: Any, make_table: Any, talk_limit: Any, size: tuple[int, int]) -> None:
    table = make_table("thirteen")
    width, height = size
    alice = player("阿丽", width=width, height=height)
    bob = player("Bob", lang="en", width=width, height=height)
    carol = player("小美", lang="zh-hant", width=width, height=height)
    for p in (alice, bob):
        sit_down(p, table)
    carol.open(f"/tables/{table.pk}/")
    carol.page.wait_for_selector("[data-testid=connection].conn-online")
    seat = alice.page.evaluate(YOU)

    say(alice.page, "hurry")
    for p, lang in ((alice, "zh-hans"), (bob, "en"), (carol, "zh-hant")):
        shown = bubble(p.page, seat)
        shown.wait_for(state="visible")
        assert shown.inner_text() == phrase("hurry", lang)
        box = shown.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width  # on the screen
    assert phrase("hurry", "zh-hans") == "快点吧！" and phrase("hurry", "en") == "Hurry up, please!"
    alice.shot(f"talk-bubble-{width}")
    bubble(bob.page, seat).wait_for(state="hidden", timeout=8000)  # a few seconds, then gone

    say(alice.page, "thumbs_up")
    shown = bubble(bob.page, seat)
    shown.wait_for(state="visible")
    assert shown.inner_text() == EMOTES["thumbs_up"][0] and shown.get_attribute("aria-label") == "Thumbs up"

    # A watcher may not talk, but may mute the table's talk; the browser remembers it.
    carol.page.click("[data-testid=talk-toggle]")
    carol.page.wait_for_selector("[data-testid=talk-sit]", state="visible")
    settled(carol.page)
    assert carol.page.locator("[data-testid=talk-phrase]").count() == 0
    carol.shot(f"talk-watcher-{width}")
    carol.page.check("[data-testid=talk-mute]")
    carol.page.reload()
    carol.page.wait_for_selector("[data-testid=connection].conn-online")
    carol.page.wait_for_selector("[data-testid=talk-toggle].muted")
    assert carol.page.get_attribute("[data-testid=talk-toggle]", "aria-label") == "牌桌聊天已關閉"

    say(alice.page, "nice_hand")
    bubble(bob.page, seat).filter(has_text="Nice hand!").wait_for(state="visible")
    assert bubble(alice.page, seat).inner_text() == "好牌！"
    assert not bubble(carol.page, seat).is_visible()

    # The fourth saying in the minute: refused, the server's reason in the player's language.
    alice.page.click("[data-testid=talk-toggle]")
    settled(alice.page)
    alice.shot(f"talk-panel-{width}")
    alice.page.click("[data-testid=talk-panel] [data-say=thanks]")
    toast = alice.page.locator("[data-testid=toast]", has_text="聊天太快了")
    toast.wait_for()
    assert "每 60 秒最多 3 条短语或表情" in toast.inner_text()
    assert not bob.page.locator("[data-testid=talk-bubble]", has_text="Thank you!").is_visible()
    for p in (alice, bob, carol):
        assert not p.errors and not p.csp_violations
