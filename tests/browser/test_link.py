"""The connection's strength in the lower left of the table page (docs/PROTOCOL.md "Connection
strength"), at phone and desktop sizes: 好 on a quick network, 一般 and 差 as the network slows
(dropping to 差 while the slow pong is still on its way), back to 好 within a ping of the network
recovering, and 不通 at once when the socket is cut — by the browser going offline (Chromium's
network emulation, through CDP) or by the server side closing it.

The slow network is a proxy that delays every chunk (tests/browser/throttle.py): Chromium's
``Network.emulateNetworkConditions`` latency delays a WebSocket's handshake but not its frames."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from games.sent import sent_reset
from tables.ui_talk import TALK
from tests.browser.conftest import call
from tests.browser.helpers import sit_down
from tests.browser.throttle import LatencyProxy

pytestmark = pytest.mark.browser

PHONE = (375, 667)
DESKTOP = (1280, 800)
PING_MS = 500  # GAMES_PING_EVERY for these tests: the page reads it from data-ping-ms

LINK = "[data-testid=link]"
PAGE_DATA = "Alpine.$data(document.querySelector('[data-testid=table-page]'))"
#: Records every level the indicator shows from now on, with the last round trip measured when it
#: showed (a level can be shown for less than a poll of the test: a closed socket reconnects fast).
RECORD_LEVELS = """() => {
  const el = document.querySelector('[data-testid=link]');
  const data = Alpine.$data(document.querySelector('[data-testid=table-page]'));
  const rtt = () => { const r = data.linkRtts; return r.length ? r[r.length - 1] : null; };
  window.linkLevels = [[el.dataset.level, rtt()]];
  new MutationObserver(() => window.linkLevels.push([el.dataset.level, rtt()]))
    .observe(el, {attributes: true, attributeFilter: ['data-level']});
}"""
CLOSE_SOCKET = f"() => {PAGE_DATA}.socket.ws.close()"


def label(key: str, lang: str) -> str:
    from django.utils import translation

    with translation.override(lang):
        return str(TALK[key])


def level_is(page: Any, level: str, timeout: float = 10_000) -> None:
    page.wait_for_selector(f"{LINK}[data-level={level}]", timeout=timeout)


@pytest.fixture
def fast_pings(settings: Any, server: str) -> None:
    settings.GAMES_PING_EVERY = PING_MS / 1000
    call(sent_reset)  # a test database starts its table ids over: records of other tables would be ahead


@pytest.fixture
def slow_network(server: str) -> Iterator[LatencyProxy]:
    with LatencyProxy(int(server.rsplit(":", 1)[1])) as proxy:
        yield proxy


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_the_strength_follows_the_network_and_shows_no_connection_at_once_when_cut(
        player: Any, make_table: Any, fast_pings: None, slow_network: LatencyProxy, size: tuple[int, int]) -> None:
    table = make_table("thirteen")
    p = player("阿丽", width=size[0], height=size[1])
    p.base = slow_network.url
    sit_down(p, table)
    page = p.page
    assert page.get_attribute(LINK, "data-ping-ms") == str(PING_MS)
    level_is(page, "good")
    link = page.locator(LINK)
    assert link.locator("[data-testid=link-label]").inner_text() == label("link_good", "zh-hans") == "好"
    page.wait_for_function("() => /最近往返 \\d+ 毫秒 · 平均 \\d+ 毫秒 · 漏帧 0/.test(document.querySelector('[data-testid=link]').title)")
    box = link.bounding_box()
    assert box is not None and box["x"] < size[0] / 3 and box["y"] + box["height"] > size[1] - 60  # lower left

    slow_network.delay = 0.2  # a round trip of 400 ms
    level_is(page, "fair")
    assert link.inner_text().strip() == "一般"
    page.evaluate(RECORD_LEVELS)
    slow_network.delay = 0.9  # a round trip of 1.8 s: poor before the first slow pong is back
    level_is(page, "poor")
    assert link.inner_text().strip() == "差"
    first_poor = page.evaluate("() => window.linkLevels.find(l => l[0] === 'poor')")
    assert first_poor[1] is not None and first_poor[1] < 1700, first_poor  # no 1.8 s round trip was in yet
    page.wait_for_function(f"() => {PAGE_DATA}.linkRtts.some(r => r >= 1700)")
    slow_network.delay = 0
    level_is(page, "good", timeout=1800 + PING_MS + 1000)  # the slow pongs in flight, then the next one

    page.evaluate(RECORD_LEVELS)
    page.context.set_offline(True)
    level_is(page, "none", timeout=500)
    assert link.inner_text().strip() == "不通"
    page.context.set_offline(False)
    level_is(page, "good", timeout=20_000)

    page.evaluate(RECORD_LEVELS)
    slow_network.cut()  # the server side closes the socket
    page.wait_for_function("() => window.linkLevels.some(l => l[0] === 'none')", timeout=1000)
    level_is(page, "good", timeout=20_000)

    page.evaluate(RECORD_LEVELS)
    page.evaluate(CLOSE_SOCKET)
    page.wait_for_function("() => window.linkLevels.some(l => l[0] === 'none')", timeout=1000)
    level_is(page, "good", timeout=20_000)
    assert not p.errors and not p.csp_violations
    p.shot(f"link-{size[0]}")


@pytest.mark.parametrize(("lang", "good", "none"), [("en", "Good", "No connection"), ("zh-hant", "好", "不通")])
def test_the_levels_are_in_the_players_language(
        player: Any, make_table: Any, fast_pings: None, lang: str, good: str, none: str) -> None:
    table = make_table("thirteen")
    p = player("Bob", lang=lang, width=DESKTOP[0], height=DESKTOP[1])
    p.open(f"/tables/{table.pk}/")
    level_is(p.page, "good")
    link = p.page.locator(LINK)
    assert link.inner_text().strip() == good == label("link_good", lang)
    assert (link.get_attribute("aria-label") or "").startswith(label("link", lang))
    p.page.context.set_offline(True)
    level_is(p.page, "none", timeout=1000)
    assert link.inner_text().strip() == none == label("link_none", lang)
    p.page.context.set_offline(False)
