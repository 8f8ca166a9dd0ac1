"""The player's pages render for every game and mode: "my hands" and the replay."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from tests.history.conftest import CASES, records_of

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("game,mode,players", CASES)
def test_my_hands_and_the_replay_render(game: str, mode: str, players: int, live: Any, client: Client) -> None:
    table = live(game, mode, players, seed=90 + players)
    table.play(1)
    record = records_of(table.table)[0]
    player = table.users[0]
    player.language = "en"
    player.save(update_fields=["language"])
    client.force_login(player)
    with translation.override("en"):
        listing = client.get(reverse("history-hands")).content.decode()
        page = client.get(reverse("history-hand", args=[record.hand_id])).content.decode()
    assert reverse("history-hand", args=[record.hand_id]) in listing
    body = record.body
    assert all(p["name"] in page for p in body["players"])
    assert "Step 1 of" in page and body["fairness"]["commitment"] in page and record.hash in page
    assert page.count('class="tag">automatic') == sum(a["auto"] for a in body["actions"])
    assert reverse("dispute-open", args=[record.hand_id]) in page
