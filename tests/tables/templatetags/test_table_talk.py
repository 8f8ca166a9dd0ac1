"""``{% table_talk %}`` on the table page: the talk controls, the connection strength with the
server's ping interval, and the talk data, in the page's language, for players and watchers."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.test import Client

from tests.factories import funded_user, table_at

pytestmark = pytest.mark.django_db


def _talk_data(page: str) -> Any:
    found = re.search(r'<script id="ct-talk" type="application/json">(.*?)</script>', page, re.S)
    assert found is not None
    return json.loads(found.group(1))


@pytest.mark.parametrize(("game", "mode"), [("thirteen", ""), ("thirteen_trio", ""), ("samgong", "all_compare")])
def test_every_table_page_carries_the_talk_and_the_connection_strength(settings: Any, game: str, mode: str) -> None:
    settings.GAMES_PING_EVERY = 2.5
    table = table_at(game, mode)
    client = Client()
    client.force_login(funded_user("talker", 100_000, language="en"))
    page = client.get(f"/tables/{table.pk}/").content.decode()
    assert 'data-testid="link"' in page and 'data-ping-ms="2500"' in page
    assert 'data-testid="talk-toggle"' in page and 'data-testid="talk-bubble"' in page
    assert dict(_talk_data(page)["phrases"])["nice_hand"] == "Nice hand!"
    assert "js/ct-talk.js" in page and "js/ct-link.js" in page and "css/ct-talk.css" in page


def test_a_signed_out_watcher_gets_them_too_in_the_default_language() -> None:
    table = table_at("thirteen")
    page = Client().get(f"/tables/{table.pk}/").content.decode()
    assert 'data-ping-ms="5000"' in page
    assert dict(_talk_data(page)["phrases"])["hello"] == "大家好！"
