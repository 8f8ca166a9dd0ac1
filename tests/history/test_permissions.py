"""Who may read which hand history endpoint: the player, another player, staff, an auditor, nobody."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from tests.history.conftest import records_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def setup(live: Any, people: dict[str, Any]) -> dict[str, Any]:
    table = live("thirteen_trio", "", 3, seed=51)
    table.play(2)
    records = records_of(table.table)
    return {**people, "player": table.users[0], "records": records}


def login(client: Client, user: Any) -> Client:
    client.logout()
    if user is not None:
        client.force_login(user)
    return client


def streamed(response: Any) -> list[dict[str, Any]]:
    return [json.loads(line) for line in b"".join(response.streaming_content).decode().splitlines()]


@pytest.mark.parametrize("who,status", [("player", 200), ("stranger", 404), ("staff", 200), ("auditor", 200),
                                        (None, 403)])
def test_one_record(setup: dict[str, Any], client: Client, who: str | None, status: int) -> None:
    record = setup["records"][0]
    response = login(client, setup.get(who or "")).get(reverse("api-history-hand", args=[record.hand_id]))
    assert response.status_code == status
    if status == 200:
        body = response.json()
        full = who in ("staff", "auditor")
        assert (body["fairness"]["server_seed"] is not None) == full
        assert ("view" in body) != full
        assert body["hash"] == record.hash


@pytest.mark.parametrize("who,count", [("player", 2), ("stranger", 0), ("staff", 2), ("auditor", 2)])
def test_the_hand_list(setup: dict[str, Any], client: Client, who: str, count: int) -> None:
    response = login(client, setup[who]).get(reverse("api-history-hands"))
    assert response.status_code == 200 and response.json()["count"] == count
    assert login(client, None).get(reverse("api-history-hands")).status_code == 403


@pytest.mark.parametrize("who,count", [("player", 2), ("stranger", 0), ("staff", 0), ("auditor", 0)])
def test_my_export_holds_only_my_own_hands(setup: dict[str, Any], client: Client, who: str, count: int) -> None:
    response = login(client, setup[who]).get(reverse("api-history-my-export"))
    assert response.status_code == 200
    lines = streamed(response)
    assert len(lines) == count and all(line["view"]["seat"] == 0 for line in lines)
    assert login(client, None).get(reverse("api-history-my-export")).status_code == 403


@pytest.mark.parametrize("who,status", [("player", 403), ("stranger", 403), ("staff", 200), ("auditor", 200),
                                        (None, 403)])
@pytest.mark.parametrize("name", ["api-history-export", "api-history-chains"])
def test_auditor_endpoints(setup: dict[str, Any], client: Client, who: str | None, status: int, name: str) -> None:
    response = login(client, setup.get(who or "")).get(reverse(name))
    assert response.status_code == status
    if status == 200 and name == "api-history-export":
        assert [line["hash"] for line in streamed(response)] == [r.hash for r in setup["records"]]
    if status == 200 and name == "api-history-chains":
        assert response.json() == [{"table": setup["records"][-1].table_id, "seq": 2, "hash": setup["records"][-1].hash,
                                    "finished_at": response.json()[0]["finished_at"]}]


@pytest.mark.parametrize("method", ["post", "put", "delete"])
def test_nobody_writes_through_the_history_api(setup: dict[str, Any], client: Client, method: str) -> None:
    record = setup["records"][0]
    for who in ("player", "auditor", "staff"):
        c = login(client, setup[who])
        assert getattr(c, method)(reverse("api-history-hand", args=[record.hand_id])).status_code in (403, 405)
        assert getattr(c, method)(reverse("api-history-export")).status_code in (403, 405)


@pytest.mark.parametrize("who,status", [("player", 200), ("stranger", 404), ("staff", 200), ("auditor", 200)])
def test_the_replay_page(setup: dict[str, Any], client: Client, who: str, status: int) -> None:
    record = setup["records"][0]
    assert login(client, setup[who]).get(reverse("history-hand", args=[record.hand_id])).status_code == status
    assert login(client, None).get(reverse("history-hand", args=[record.hand_id])).status_code == 302


def test_auditors_see_records_in_admin_but_change_nothing(setup: dict[str, Any], client: Client) -> None:
    record = setup["records"][0]
    c = login(client, setup["auditor"])
    change = reverse("admin:history_handrecord_change", args=[record.pk])
    assert c.get(change).status_code == 200
    assert c.post(change, {"number": 9}).status_code == 403
    assert c.post(reverse("admin:history_handrecord_delete", args=[record.pk]), {"post": "yes"}).status_code == 403
    assert login(client, setup["player"]).get(change).status_code == 302
