"""No player export or page shows an opponent's card that was not revealed at showdown.

Only the trio hides cards for good: each opponent's four unused cards (and the seed that
would re-deal them). Over many random trio hands played live, every player's exports (JSON
Lines, text, CSV), record API answers, replay pages and list page are searched for those
cards — and for the player's own unused cards, which must be there (so the search works).
"""

from __future__ import annotations

import json
import re
import tomllib
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from history.models import HandRecord
from tests.history.conftest import records_of

pytestmark = pytest.mark.django_db

CARD = re.compile(r"^[2-9TJQKA][shcd]$")
PAGE_CARD = re.compile(r'title="([2-9TJQKA][shcd])"')


def json_cards(value: Any) -> set[str]:
    if isinstance(value, str):
        return {value} if CARD.match(value) else set()
    if isinstance(value, dict):
        return set().union(*(json_cards(v) for v in value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*(json_cards(v) for v in value)) if value else set()
    return set()


def action_cards(actions: list[str]) -> set[str]:
    """Cards in the text form's action strings (``d dh p1 AhKd…``, ``p2 arr AhKdQc/…``)."""
    found: set[str] = set()
    for action in actions:
        for word in action.split(" # ")[0].split()[2:]:
            for group in word.split("/"):
                found |= {group[i:i + 2] for i in range(0, len(group), 2) if CARD.match(group[i:i + 2])}
    return found


def unused(record: HandRecord, seat: int) -> set[str]:
    s = record.body["seats"][seat]
    return set(s["cards"]) - set(s.get("front", []) + s.get("middle", []) + s.get("back", []))


def download(client: Client, fmt: str) -> str:
    response = client.get(reverse("api-history-my-export"), {"format": fmt})
    assert response.status_code == 200
    return b"".join(response.streaming_content).decode()


def what_a_player_sees(client: Client, records: list[HandRecord]) -> dict[str, Any]:
    """Per hand id, every card the player's exports, record API and replay page show of it."""
    exports = {fmt: download(client, fmt) for fmt in ("jsonl", "text", "csv")}
    seen: dict[int, set[str]] = {r.hand_id: set() for r in records}
    for line in exports["jsonl"].splitlines():
        body = json.loads(line)
        seen[body["hand"]["id"]] |= json_cards(body)
    for hand_id, hand in tomllib.loads(exports["text"]).items():
        seen[int(hand_id)] |= action_cards(hand["actions"]) | {hand.get("_jackpot", "")} - {""}
    raw = list(exports.values())
    for record in records:
        detail = client.get(reverse("api-history-hand", args=[record.hand_id])).json()
        page = client.get(reverse("history-hand", args=[record.hand_id])).content.decode()
        seen[record.hand_id] |= json_cards(detail) | set(PAGE_CARD.findall(page))
        raw += [json.dumps(detail), page]
    listing = client.get(reverse("history-hands")).content.decode()
    assert not PAGE_CARD.findall(listing) and not json_cards(exports["csv"].replace("\r\n", ",").split(","))
    return {"cards": seen, "raw": "".join(raw + [listing])}


@pytest.mark.parametrize("seed", [21, 22, 23])
def test_no_player_ever_sees_an_opponents_unused_trio_cards(live: Any, client: Client, seed: int) -> None:
    table = live("thirteen_trio", "", 3, seed=seed)
    table.disconnects = 0.15
    assert len(table.play(6)) >= 3
    records = records_of(table.table)
    for seat, user in enumerate(table.users):
        client.force_login(user)
        seen = what_a_player_sees(client, records)
        for record in records:
            hidden = set().union(*(unused(record, other) for other in range(3) if other != seat))
            shown = seen["cards"][record.hand_id]
            assert len(hidden) == 8 and not (hidden & shown), f"seat {seat} sees {sorted(hidden & shown)}"
            assert unused(record, seat) <= shown, "the player's own unused cards are shown (the search is real)"
            assert len(shown) == 13 + 13 + 17 + 1, "own 17, the opponents' played 13 each, the jackpot card"
            assert record.body["fairness"]["server_seed"] not in seen["raw"], "the seed would re-deal hidden cards"
            assert record.body["fairness"]["commitment"] in seen["raw"]


def test_other_games_show_every_card_after_showdown(live: Any, client: Client) -> None:
    table = live("thirteen", "", 3, seed=31)
    table.play(2)
    records = records_of(table.table)
    client.force_login(table.users[0])
    seen = what_a_player_sees(client, records)
    for record in records:
        assert seen["cards"][record.hand_id] == {c for s in record.body["seats"] for c in s["cards"]}
        assert record.body["fairness"]["server_seed"] in seen["raw"]
