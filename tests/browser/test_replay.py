"""The replay page steps through a hand: one labelled step at a time, moved by the First /
Previous / Next / Last buttons and by the arrow, Home and End keys; each row comparison names
the categories; times read in the browser's own time zone (here Asia/Shanghai, UTC+8). At a
desktop size and on a 375×667 phone, in English and in Chinese."""

from __future__ import annotations

import datetime as dt
import zoneinfo
from typing import Any

import pytest
from django.test import Client
from django.utils import translation

from games.engine import poker
from games.engine.cards import parse_cards
from games.services.hands import hand_start_if_ready
from games.services.seating import seat_join
from history.models import HandRecord
from tests.browser.conftest import ARTIFACTS, COINS, call
from tests.browser.helpers import text
from tests.factories import funded_user, hand_play_out

pytestmark = pytest.mark.browser

ZONE = "Asia/Shanghai"
ROWS = ("front", "middle", "back")

VISIBLE = """() => [...document.querySelectorAll('[data-step]')].filter(e => !e.hidden && e.getClientRects().length)
  .map(e => ({n: Number(e.dataset.step), kind: e.dataset.kind,
              title: e.querySelector('[data-step-title]').textContent.trim(),
              heading: e.querySelector('h2').textContent.replace(/\\s+/g, ' ').trim(),
              text: e.textContent.replace(/\\s+/g, ' ').trim(),
              times: [...e.querySelectorAll('time')].map(t => t.textContent.trim())}))"""


def played_hand(server: str, lang: str) -> tuple[HandRecord, list[Any]]:
    from tests.factories import table_at

    table = table_at("thirteen")
    users = [funded_user(f"replay{i}_{lang}", COINS, display_name=name, language=lang)
             for i, name in enumerate(["Alice", "Bob"])]
    for user in users:
        call(seat_join, table_id=table.pk, user=user, buy_in=table.stake_level.min_buy_in, request_id=f"j{user.pk}")
    hand = call(hand_start_if_ready, table_id=table.pk)
    call(hand_play_out, hand, users)
    return call(lambda: HandRecord.objects.get(hand_id=hand.pk)), users


def open_replay(browser: Any, server: str, user: Any, hand_id: int, size: tuple[int, int], lang: str) -> Any:
    client = Client()
    client.force_login(user)
    context = browser.new_context(viewport={"width": size[0], "height": size[1]}, locale=lang, timezone_id=ZONE)
    context.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": server}])
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"{server}/history/hands/{hand_id}/")
    page.wait_for_selector("[data-replay-nav]", state="visible")
    return page, context, errors


def shown(page: Any) -> dict[str, Any]:
    steps = page.evaluate(VISIBLE)
    assert len(steps) == 1, steps
    return steps[0]


def local(iso: str) -> str:
    """The clock time of ``iso`` in the browser's zone, as the page writes it (24-hour)."""
    return dt.datetime.fromisoformat(iso).astimezone(zoneinfo.ZoneInfo(ZONE)).strftime("%H:%M:%S")


def label(msgid: str, lang: str) -> str:
    with translation.override(lang):
        return translation.gettext(msgid)


@pytest.mark.parametrize(("size", "lang"), [((1280, 800), "en"), ((375, 667), "en"), ((375, 667), "zh-hans")],
                         ids=["desktop-en", "phone-en", "phone-zh"])
def test_stepping_through_a_replay(browser: Any, server: str, size: tuple[int, int], lang: str) -> None:
    record, users = played_hand(server, lang)
    body = record.body
    page, context, errors = open_replay(browser, server, users[0], record.hand_id, size, lang)
    try:
        total = len(body["actions"]) + 2 + sum(1 for _ in page.query_selector_all("[data-kind=compare]"))
        first = shown(page)
        assert first["n"] == 1 and first["title"] == label("Deal", lang) and first["kind"] == "deal"
        with translation.override(lang):
            assert translation.gettext("Step %(n)s of %(total)s") % {"n": 1, "total": total} in first["heading"]
        assert first["times"] == [page.evaluate("() => document.querySelector('[data-step=\"1\"] time').textContent")]
        assert local(body["hand"]["started_at"]) in first["times"][0]
        assert page.get_by_role("button", name=label("First", lang)).is_disabled()
        assert page.get_by_role("button", name=label("Previous", lang)).is_disabled()

        page.get_by_role("button", name=label("Next", lang)).click()
        step = shown(page)
        action = body["actions"][0]
        who = body["players"][action["seat"]]["name"]
        assert step["n"] == 2 and step["kind"] == "action" and step["title"].startswith(who)
        assert local(action["at"]) in step["times"][0]

        while shown(page)["kind"] != "compare":  # the arrow key moves on
            page.keyboard.press("ArrowRight")
        step = shown(page)
        if step["title"] == label("Row 1: front", lang):
            for seat in body["seats"]:
                key = poker.rank_row(parse_cards(seat["front"]), suits=True)
                assert text(f"cat_{poker.category(key)}", lang) in step["text"]
        else:  # a declared natural is compared first
            assert step["title"] == label("Naturals", lang)
        assert "→" in step["text"]
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"replay-{size[0]}-{lang}-compare.png"))

        page.keyboard.press("End")
        last = shown(page)
        assert last["n"] == total and last["kind"] == "coins" and last["title"] == label("Coins", lang)
        assert local(body["hand"]["finished_at"]) in last["times"][0]
        assert page.get_by_role("button", name=label("Next", lang)).is_disabled()
        page.keyboard.press("ArrowLeft")
        assert shown(page)["n"] == total - 1
        page.keyboard.press("Home")
        assert shown(page)["n"] == 1
        page.get_by_role("button", name=label("Last", lang)).click()
        assert shown(page)["n"] == total
        page.get_by_role("button", name=label("Previous", lang)).click()
        assert shown(page)["n"] == total - 1
        page.get_by_role("button", name=label("First", lang)).click()
        assert shown(page)["n"] == 1

        heading = page.evaluate("() => document.querySelector('h1').textContent")
        assert str(record.hand_id) in heading
        width = page.evaluate("() => [document.documentElement.scrollWidth, window.innerWidth]")
        assert width[0] <= width[1], f"the replay scrolls sideways at {size}"
        boxes = page.evaluate("""() => [...document.querySelectorAll('[data-replay-nav] button')]
            .map(b => { const r = b.getBoundingClientRect(); return [r.left, r.right, r.width, r.height]; })""")
        assert len(boxes) == 4 and all(w > 0 and h > 0 and x >= 0 and r <= size[0] for x, r, w, h in boxes)
        page.screenshot(path=str(ARTIFACTS / f"replay-{size[0]}-{lang}.png"), full_page=True)
        assert errors == []
    finally:
        context.close()
