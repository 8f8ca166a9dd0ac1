"""With the Content-Security-Policy on, the pages run and the browser reports no violation."""

from __future__ import annotations

import pytest

from games.engine.registry import GAMES, engine_for
from tests.browser.conftest import call

pytestmark = pytest.mark.browser

_WATCH = """() => { window.__csp = []; document.addEventListener("securitypolicyviolation",
  e => window.__csp.push(e.violatedDirective + " " + e.blockedURI)); }"""


def _visit(p, path: str, ready: str) -> list[str]:
    p.page.add_init_script(f"({_WATCH})()")
    p.open(path)
    p.page.wait_for_selector(ready)
    p.page.wait_for_timeout(300)  # late loads (fonts, images, sockets)
    return list(p.page.evaluate("window.__csp || []"))


def test_no_page_shows_a_csp_violation(player, make_table):
    tables = [call(make_table, game, next(iter(engine_for(game).modes))) for game in GAMES]
    p = player("Erin", lang="en")
    pages = [("/lobby/", ".conn-online"), ("/wallet/", "[data-testid=balance]"), ("/history/", "main"),
             ("/api/docs/", ".swagger-ui .info"), ("/accounts/profile/", "main")]
    pages += [(f"/tables/{t.pk}/", ".conn-online") for t in tables]
    for path, ready in pages:
        assert _visit(p, path, ready) == [], path
    p.page.select_option("#lang-select", "zh-hans")  # the language switch submits without inline script
    p.page.wait_for_function("() => document.documentElement.lang === 'zh-hans'")
    assert p.csp_violations == [] and p.errors == []
