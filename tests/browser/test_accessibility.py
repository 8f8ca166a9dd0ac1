"""Accessibility: axe-core (vendored, static/vendor/axe-core/) on every kind of page, in Chinese
and English; a ``serious`` or ``critical`` violation fails the test and is named."""

from __future__ import annotations

from typing import Any

import pytest

from games.services.hands import hand_start_if_ready
from tests.browser.conftest import call
from tests.browser.helpers import settled, sit_down
from tests.factories import hand_play_out

pytestmark = pytest.mark.browser

AXE = "/static/vendor/axe-core/axe-4.14.1.min.js"
RUN = """async () => {
  const r = await axe.run(document, {resultTypes: ['violations']});
  return r.violations.filter(v => v.impact === 'serious' || v.impact === 'critical')
    .map(v => ({id: v.id, impact: v.impact, nodes: v.nodes.slice(0, 4).map(n => n.target.join(' '))}));
}"""


def violations(page: Any, base: str) -> list[dict[str, Any]]:
    page.wait_for_load_state("networkidle")
    settled(page)  # a dialog still fading in has the contrast of one frame of the fade
    page.add_script_tag(url=base + AXE)  # same origin: the Content-Security-Policy allows it
    return list(page.evaluate(RUN))


def check(p: Any, path: str, found: dict[str, Any]) -> None:
    p.open(path)
    bad = violations(p.page, p.base)
    if bad:
        found[path] = bad


@pytest.mark.parametrize("lang", ["zh-hans", "en"])
def test_signed_in_pages_have_no_serious_or_critical_violations(player, make_table, lang):
    table = make_table("thirteen")
    players = [player("阿丽", lang=lang), player("Bob", lang=lang)]
    for p in players:
        sit_down(p, table)
    hand = call(hand_start_if_ready, table_id=table.pk)
    assert hand is not None
    alice = players[0]
    alice.page.wait_for_selector("[data-testid=board]", state="visible")
    found: dict[str, Any] = {}
    bad = violations(alice.page, alice.base)
    if bad:
        found["table (arranging)"] = bad
    call(hand_play_out, hand, [p.user for p in players])
    from history.models import HandRecord

    record = call(lambda: HandRecord.objects.order_by("-pk").first())
    for path in ["/", "/lobby/", "/wallet/", "/history/", "/disputes/",
                 *( [f"/history/hands/{record.hand_id}/"] if record else [])]:
        check(alice, path, found)
    for game, mode in [("thirteen_trio", ""), ("samgong", "all_compare"), ("samgong", "banker_bid"), ("samgong", "house")]:
        check(alice, f"/tables/{make_table(game, mode).pk}/", found)
    assert not found, found


def test_sign_up_and_log_in_pages_have_no_serious_or_critical_violations(browser, server):
    found: dict[str, Any] = {}
    context = browser.new_context(viewport={"width": 375, "height": 667})
    page = context.new_page()
    for path in ["/accounts/login/", "/accounts/signup/", "/"]:
        page.goto(server + path)
        bad = violations(page, server)
        if bad:
            found[path] = bad
    context.close()
    assert not found, found
