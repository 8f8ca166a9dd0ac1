"""One public hand id everywhere: the replay's address, the wallet line (a link reaching the
hand's page), the exports (JSON Lines, text, CSV), the record API, disputes and admin all name a
hand by the hand's own id — not the hand record's row id, which the test makes differ."""

from __future__ import annotations

import csv
import io
import json
import re
import tomllib
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from games.services.hands import hand_start_if_ready
from history.models import HandRecord
from tests.history.conftest import records_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(live: Any) -> dict[str, Any]:
    """A hand in play at one table (a hand with no record yet), then a finished hand at another,
    so the finished hand's id and its record's row id differ."""
    other = live("thirteen", "", 2, seed=5)
    assert hand_start_if_ready(table_id=other.table.pk) is not None
    table = live("thirteen", "", 2, seed=6)
    table.play(1)
    record = records_of(table.table)[0]
    assert record.hand_id != record.pk
    return {"record": record, "hand_id": record.hand_id, "player": table.users[0], "others": other.users}


def _client(user: Any) -> Client:
    if getattr(user, "language", "en") != "en":
        user.language = "en"
        user.save(update_fields=["language"])
    client = Client()
    client.force_login(user)
    return client


def _download(client: Client, fmt: str) -> str:
    response = client.get(reverse("api-history-my-export"), {"format": fmt})
    assert response.status_code == 200
    return b"".join(response.streaming_content).decode()


def test_the_wallet_line_links_to_the_hand_by_its_id(played: dict[str, Any]) -> None:
    client, hand_id = _client(played["player"]), played["hand_id"]
    with translation.override("en"):
        wallet = client.get(reverse("wallet:wallet")).content.decode()
    url = f"/history/hands/{hand_id}/"
    assert re.search(rf'<a href="{url}" data-hand-id="{hand_id}">Hand {hand_id}</a>', wallet)
    assert f"hand:{hand_id}" not in wallet  # the raw reference became the link
    page = client.get(url)
    assert page.status_code == 200 and f"Hand {hand_id}" in page.content.decode()
    lines = client.get(reverse("api-wallet-statement")).json()["results"]
    assert {line["hand"] for line in lines if line["reference"].startswith("hand:")} == {hand_id}


def test_the_pages_and_their_addresses_use_the_hand_id(played: dict[str, Any]) -> None:
    client, record, hand_id = _client(played["player"]), played["record"], played["hand_id"]
    assert reverse("history-hand", args=[hand_id]) == f"/history/hands/{hand_id}/"
    listing = client.get(reverse("history-hands")).content.decode()
    assert f'href="/history/hands/{hand_id}/"' in listing and f"/history/hands/{record.pk}/" not in listing
    old = client.get(f"/history/{record.pk}/")  # the record row's address still leads to the hand
    assert old.status_code == 301 and old["Location"] == f"/history/hands/{hand_id}/"
    assert _client(played["others"][0]).get(f"/history/{record.pk}/").status_code == 404  # no hint it exists
    assert client.get(f"/history/hands/{record.pk}/").status_code == 404  # a row id is not a hand id


def test_the_exports_and_the_api_use_the_hand_id(played: dict[str, Any]) -> None:
    client, hand_id = _client(played["player"]), played["hand_id"]
    lines = [json.loads(line) for line in _download(client, "jsonl").splitlines()]
    assert [body["hand"]["id"] for body in lines] == [hand_id]
    assert list(tomllib.loads(_download(client, "text"))) == [str(hand_id)]
    rows = list(csv.DictReader(io.StringIO(_download(client, "csv"))))
    assert {row["hand_id"] for row in rows} == {str(hand_id)} and len(rows) == 2
    listed = client.get(reverse("api-history-hands")).json()["results"]
    assert [r["id"] for r in listed] == [hand_id]
    detail = client.get(f"/api/history/hands/{hand_id}/")
    assert detail.status_code == 200 and detail.json()["hand"]["id"] == hand_id


def test_disputes_name_the_hand_by_its_id(played: dict[str, Any]) -> None:
    client, hand_id = _client(played["player"]), played["hand_id"]
    page = client.get(reverse("history-hand", args=[hand_id])).content.decode()
    assert f'href="/disputes/new/{hand_id}/"' in page
    opened = client.post(reverse("api-disputes"), {"hand": hand_id, "category": "other", "text": "look"})
    assert opened.status_code == 201 and opened.json()["hand"] == hand_id and "record" not in opened.json()
    dispute = opened.json()["id"]
    for url in (reverse("dispute-list"), reverse("dispute-detail", args=[dispute])):
        assert f'href="/history/hands/{hand_id}/"' in client.get(url).content.decode()
    assert client.post(reverse("api-disputes"), {"category": "other", "text": "x"}).status_code == 400


def test_the_dispute_form_is_addressed_by_the_hand_id(played: dict[str, Any]) -> None:
    client, record, hand_id = _client(played["player"]), played["record"], played["hand_id"]
    response = client.post(f"/disputes/new/{hand_id}/", {"category": "other", "text": "please look"})
    assert response.status_code == 302
    assert record.disputes.get().player == played["player"]  # type: ignore[attr-defined]
    assert client.get(f"/disputes/new/{record.pk}/").status_code == 404


def test_admin_lists_records_and_disputes_by_hand_id(played: dict[str, Any], people: dict[str, Any]) -> None:
    record, hand_id = played["record"], played["hand_id"]
    _client(played["player"]).post(reverse("api-disputes"), {"hand": hand_id, "category": "other", "text": "x"})
    staff = _client(people["staff"])
    with translation.override("en"):
        records = staff.get(reverse("admin:history_handrecord_changelist")).content.decode()
        disputes = staff.get(reverse("admin:disputes_dispute_changelist")).content.decode()
    assert re.search(rf">{hand_id}</a></th>", records) and "Hand id" in records
    assert f"Hand {hand_id} (Thirteen (十三张))" in disputes  # the game by its name, not its code
    with translation.override("en"):
        assert str(HandRecord.objects.get(pk=record.pk)) == f"Hand {hand_id} (Thirteen (十三张))"
    with translation.override("zh-hans"):
        assert str(HandRecord.objects.get(pk=record.pk)) == f"牌局 {hand_id}（十三张）"
