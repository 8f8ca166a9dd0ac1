"""A player downloads the hands of chosen days from "My hands": the form's first and last day are
whole days (the last one included), and the CSV names every seat's commission and penalty and
the house's result. On a 375×667 phone and at desktop size, in each language."""

from __future__ import annotations

import csv
import datetime as dt
import io
from pathlib import Path
from typing import Any

import pytest
from django.utils import translation
from django.utils.translation import gettext

from games.services.hands import hand_start_if_ready
from games.services.seating import seat_join
from history.models import HandRecord
from tests.browser.conftest import call
from tests.factories import hand_play_out, table_at

# The export reads through its own database alias (history/exports/budget.py, step 1).
pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True, databases=["default", "exports"])]

MONEY = ("commission", "penalty", "house", "house_commission", "house_penalty", "house_banker")


def trio_hand(players: list[Any]) -> HandRecord:
    """One 三人十三支 hand played out by the three players' own moves."""
    table = call(table_at, "thirteen_trio")
    for p in players:
        call(seat_join, table_id=table.pk, user=p.user, buy_in=table.stake_level.min_buy_in, request_id=f"j{p.user.pk}")
    hand = call(hand_start_if_ready, table_id=table.pk)
    call(hand_play_out, hand, [p.user for p in players])
    return call(lambda: HandRecord.objects.get(hand_id=hand.pk))


def download(page: Any, since: str, until: str) -> list[dict[str, str]]:
    page.fill("[data-export-form] input[name=since]", since)
    page.fill("[data-export-form] input[name=until]", until)
    page.select_option("[data-export-form] select[name=format]", "csv")
    with page.expect_download() as info:
        page.click("[data-export-form] button[type=submit]")
    return list(csv.DictReader(io.StringIO(Path(info.value.path()).read_text(encoding="utf-8"))))


@pytest.mark.parametrize("lang,width,height", [("zh-hans", 375, 667), ("en", 1280, 800), ("zh-hant", 375, 667)])
def test_a_player_downloads_one_days_hands_with_every_seats_money(player: Any, lang: str, width: int,
                                                                   height: int) -> None:
    me = player("阿丽", lang=lang, width=width, height=height)
    record = trio_hand([me, player("Bob", lang="en"), player("小凯", lang="zh-hant")])
    body = record.body
    me.open("/history/")
    form = me.page.locator("[data-export-form]")
    form.wait_for(state="visible")
    with translation.override(lang):
        for label in ("First day", "Last day (included)", "Format", "Download these days"):
            assert gettext(label) in form.inner_text()
    assert me.page.evaluate("() => document.documentElement.scrollWidth") <= width
    box = form.locator("button[type=submit]").bounding_box()
    assert box is not None and box["x"] + box["width"] <= width
    me.shot(f"hand-export-{lang}-{width}")

    day = record.finished_at.astimezone(dt.UTC).date()
    rows = download(me.page, day.isoformat(), day.isoformat())
    assert [int(r["hand_id"]) for r in rows] == [record.hand_id] * 3
    assert all(r[column].lstrip("-").isdigit() for r in rows for column in MONEY)
    assert sum(int(r["commission"]) for r in rows) == body["result"]["commission"]
    assert all(int(r["house"]) == body["result"]["house"] for r in rows)
    assert sum(int(r["coins"]) for r in rows) + int(rows[0]["house"]) == 0
    before = (day - dt.timedelta(days=1)).isoformat()
    assert download(me.page, before, before) == []
    assert me.errors == [] and me.csp_violations == []
