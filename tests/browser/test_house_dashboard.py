"""The house dashboard as an auditor sees it, on a phone (375×667) and a desktop (1280×800), in
each language: a hand of every game and mode yesterday and today, their hands and house lines by
game, mode and stake level under translated labels, every coin the house took or paid, and three
charts with both axes titled, a value on every bar and all 24 hours of the last day."""

from __future__ import annotations

import datetime as dt
import itertools
from typing import Any

import pytest
from django.utils import timezone, translation

from games.engine.registry import games
from tests.browser.conftest import ARTIFACTS, call
from tests.factories import ensure_stake_levels

pytestmark = pytest.mark.browser
SIZES = {"desktop": (1280, 800), "phone": (375, 667)}
URL = "/admin/operations/staffaction/dashboard/"


def _auditor(lang: str) -> Any:
    from django.conf import settings
    from django.contrib.auth.models import Group

    from accounts.models import User
    from accounts.roles import roles_sync

    roles_sync()
    user = User.objects.create_user(username=f"audit-{lang}", password="x" * 12, is_staff=True, language=lang)
    user.groups.add(Group.objects.get(name=settings.AUDITORS_GROUP))
    return user


def _ledger(monkeypatch: pytest.MonkeyPatch) -> None:
    from games.services import hands as hands_service
    from tests.operations.every_game import ledger_of_every_game

    deals = itertools.count(1)
    monkeypatch.setattr(hands_service, "new_server_seed", lambda: f"{next(deals):064x}")
    ensure_stake_levels()
    today = timezone.now() - dt.timedelta(hours=3)
    ledger_of_every_game(yesterday=today - dt.timedelta(days=1), today=today)


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("lang", ["zh-hans", "zh-hant", "en"])
def test_the_dashboard_counts_every_game_under_translated_labels_and_axes(
    browser: Any, server: str, monkeypatch: pytest.MonkeyPatch, size: str, lang: str
) -> None:
    from django.test import Client

    call(_ledger, monkeypatch)
    auditor = call(_auditor, lang)
    client = Client()
    client.force_login(auditor)
    width, height = SIZES[size]
    context = browser.new_context(viewport={"width": width, "height": height}, locale=lang)
    context.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": server}])
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("console", lambda msg: errors.append(msg.text) if "Content Security Policy" in msg.text else None)
    try:
        page.goto(f"{server}{URL}")
        charts = page.locator("svg.ops-chart")
        assert charts.count() == 3
        rows = page.locator("#ops-by-level tbody tr")
        modes = [(engine, mode) for engine in games() for mode in engine.modes]
        assert rows.count() == len(modes) + 1  # and the total
        with translation.override(lang):
            for i, (engine, mode) in enumerate(modes):
                cells = rows.nth(i).locator("td")
                assert cells.nth(0).inner_text() == translation.gettext(engine.label)
                assert cells.nth(1).inner_text() == (translation.gettext(engine.modes[mode]) if mode else "")
                assert cells.nth(4).inner_text() == "2"
            titles = [charts.nth(i).locator(".ops-x-title").text_content() for i in range(3)]
            assert titles == [translation.gettext("day"), translation.gettext("day"), translation.gettext("hour")]
            assert charts.nth(2).locator(".ops-y-title").text_content() == translation.gettext("hands")
            assert charts.nth(1).locator(".ops-y-title").text_content() == translation.gettext("coins")
            kinds = page.locator("#ops-by-kind").inner_text()
            for words in ("dispute compensation", "adjustment", "grant", "house-banked games", "penalties"):
                assert translation.gettext(words) in kinds, words
        hourly = charts.nth(2)
        assert hourly.locator("rect.ops-bar").count() == 24 and hourly.locator("text.ops-value").count() == 24
        assert hourly.locator(".ops-tick").count() >= 2
        assert sum(int(t) for t in hourly.locator("text.ops-value").all_text_contents()) == len(modes)
        assert charts.nth(0).locator("rect.ops-bar").count() == 7
        for i in range(3):  # each chart is on the page, scrolled within its own box on a phone
            box = page.locator("figure.ops-chart-wrap").nth(i).bounding_box()
            assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width + 1
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"house-dashboard-{lang}-{size}.png"), full_page=True)
        assert errors == []
    finally:
        context.close()
