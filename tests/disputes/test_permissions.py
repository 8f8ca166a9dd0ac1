"""Every dispute endpoint for the player, another player, staff, an auditor and nobody."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from disputes.models import Dispute

pytestmark = pytest.mark.django_db


def as_user(client: Client, setup: dict[str, Any], who: str | None) -> Client:
    client.logout()
    if who:
        client.force_login(setup[who])
    return client


@pytest.mark.parametrize("who,status", [("player", 201), ("stranger", 403), ("staff", 403), ("auditor", 403),
                                        (None, 403)])
def test_opening(setup: dict[str, Any], client: Client, who: str | None, status: int) -> None:
    response = as_user(client, setup, who).post(
        reverse("api-disputes"), {"record": setup["record"].pk, "category": "other", "text": "please look"})
    assert response.status_code == status
    assert Dispute.objects.filter(record=setup["record"]).exists() == (status == 201)


@pytest.mark.parametrize("who,count", [("player", 1), ("stranger", 0), ("staff", 1), ("auditor", 1)])
def test_listing(setup: dict[str, Any], client: Client, who: str, count: int) -> None:
    assert as_user(client, setup, who).get(reverse("api-disputes")).json()["count"] == count
    assert as_user(client, setup, None).get(reverse("api-disputes")).status_code == 403


@pytest.mark.parametrize("who,status", [("player", 200), ("stranger", 404), ("staff", 200), ("auditor", 200),
                                        (None, 403)])
def test_reading_one(setup: dict[str, Any], client: Client, who: str | None, status: int) -> None:
    url = reverse("api-dispute", args=[setup["dispute"].pk])
    assert as_user(client, setup, who).get(url).status_code == status


@pytest.mark.parametrize("who,status", [("player", 403), ("stranger", 403), ("staff", 200), ("auditor", 403),
                                        (None, 403)])
def test_reviewing_and_resolving(setup: dict[str, Any], client: Client, who: str | None, status: int) -> None:
    pk = setup["dispute"].pk
    c = as_user(client, setup, who)
    assert c.post(reverse("api-dispute-review", args=[pk]), {}).status_code == status
    resolve = c.post(reverse("api-dispute-resolve", args=[pk]), {"outcome": "rejected", "reason": "fine"})
    assert resolve.status_code == status
    assert Dispute.objects.get(pk=pk).status == ("rejected" if status == 200 else "open")


@pytest.mark.parametrize("who,status", [("player", 200), ("stranger", 404), ("staff", 200), ("auditor", 200)])
def test_the_dispute_page(setup: dict[str, Any], client: Client, who: str, status: int) -> None:
    url = reverse("dispute-detail", args=[setup["dispute"].pk])
    assert as_user(client, setup, who).get(url).status_code == status
    assert as_user(client, setup, None).get(url).status_code == 302


@pytest.mark.parametrize("who,status", [("player", 200), ("stranger", 404)])
def test_the_open_page(setup: dict[str, Any], client: Client, who: str, status: int) -> None:
    url = reverse("dispute-open", args=[setup["record"].hand_id])
    c = as_user(client, setup, who)
    assert c.get(url).status_code == status
    response = c.post(url, {"category": "cards", "text": "the deal looks odd"})
    assert response.status_code == (302 if status == 200 else 404)
    assert Dispute.objects.filter(record=setup["record"]).count() == (1 if status == 200 else 0)


def test_a_refused_opening_says_why_in_the_players_language(setup: dict[str, Any], client: Client) -> None:
    player = setup["player"]
    body = {"record": setup["dispute"].record_id, "category": "other", "text": "x"}
    for language, message in (("en", "You already opened a dispute on this hand."), ("zh-hans", "您已对这局提出过申诉。"),
                              ("zh-hant", "您已對這局提出過申訴。")):
        player.language = language
        player.save(update_fields=["language"])
        response = as_user(client, setup, "player").post(reverse("api-disputes"), body)
        assert response.status_code == 400 and response.json()["detail"] == message
    assert client.post(reverse("api-disputes"), {**body, "record": 999999}).status_code == 404
